-- What each remembered command said (the SHA-256 of its canonical
-- encoding), so a different command reusing an id is refused instead of
-- being answered with the first one's reply. Empty for commands recorded
-- before this column existed.
ALTER TABLE command_results ADD COLUMN body_hash TEXT;
