-- The rows an upload's check read, kept for the commit (backend
-- domain/imports/reader/kept.rs): MessagePack in a zlib stream, about the
-- size of the xlsx. Reading them back costs a tenth of unpacking and
-- parsing the spreadsheet again. Imports confirmed before this have none
-- and read their file, as they did.

ALTER TABLE import_files ADD COLUMN kept_rows BYTEA;
