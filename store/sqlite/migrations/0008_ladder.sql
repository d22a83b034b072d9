-- Placeholder on branch h-submit for the lead's 0008_ladder.sql, which main gets from
-- branch h-lead: this branch's own migration is 0009, and migrations must be numbered
-- without gaps. At the merge, take main's 0008_ladder.sql and drop this file.
SELECT 1;
