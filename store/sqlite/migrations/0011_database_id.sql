-- Every database has an id of its own, made when the database is (or, for an older one,
-- when this migration runs): 16 random hex digits. The work queue marks its streams with
-- it and puts it in every message's subject, so that two databases on one bus, or a
-- database deleted and made again, never meet each other's messages.
CREATE TABLE database_id (
	id TEXT NOT NULL PRIMARY KEY CHECK (length(id) = 16 AND id NOT GLOB '*[^0-9a-f]*')
) STRICT;

INSERT INTO database_id (id) VALUES (lower(hex(randomblob(8))));
