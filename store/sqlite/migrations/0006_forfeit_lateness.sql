-- How late a time forfeit's reply came after its deadline, in milliseconds (fractions
-- kept): NULL when the game was not lost on time, or when no reply came while the referee
-- listened for it.
ALTER TABLE games ADD COLUMN late_ms REAL CHECK (late_ms IS NULL OR late_ms > 0);
