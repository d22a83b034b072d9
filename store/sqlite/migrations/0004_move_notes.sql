-- A move's note: free text the player sent about its decision (protocol SearchInfo.note).
ALTER TABLE moves ADD COLUMN note TEXT NOT NULL DEFAULT '';
