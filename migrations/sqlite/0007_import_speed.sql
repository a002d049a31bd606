-- An import's file moves out of its row into a table of its own. On SQLite
-- a row is one record: the 12 MB file of a 100,000-row import sat in the
-- middle of the imports row, so every batch that moved the cursor, and
-- every read of its progress, walked the file's ~3,000 overflow pages
-- (measured: a quarter of a 100,000-row commit). The row now holds only
-- progress; the file is read once, when a commit starts or is resumed.

CREATE TABLE import_files (
    import_id TEXT PRIMARY KEY REFERENCES imports(id),
    file BLOB NOT NULL
);
INSERT INTO import_files (import_id, file) SELECT id, file FROM imports;
ALTER TABLE imports DROP COLUMN file;
