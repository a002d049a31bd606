-- An import's file moves out of its row into a table of its own, as on
-- SQLite, where every cursor move rewrote and re-read the whole file with
-- the row (PostgreSQL keeps an unchanged large value aside, but the two
-- schemas stay alike). The row now holds only progress; the file is read
-- once, when a commit starts or is resumed.

CREATE TABLE import_files (
    import_id TEXT PRIMARY KEY REFERENCES imports(id),
    file BYTEA NOT NULL
);
INSERT INTO import_files (import_id, file) SELECT id, file FROM imports;
ALTER TABLE imports DROP COLUMN file;
