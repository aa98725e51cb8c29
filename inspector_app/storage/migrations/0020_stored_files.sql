-- Schema version 20.
--
-- The bytes of the files records name by SHA-256 (photos and documents attached to a
-- parcel, attestations' signatures), kept in the database itself when the records are in
-- an office database, so that every desk reads the same files; a desk keeps a copy of
-- those it opens in its own folder, checked by the SHA-256. A data folder's SQLite file
-- keeps its files under attachments/ and leaves this table empty. A file is stored once
-- and never changed or removed: records with legal weight name it.
CREATE TABLE stored_files (
    sha256 TEXT PRIMARY KEY CHECK (length(sha256) = 64),
    bytes BLOB NOT NULL,
    size_bytes INTEGER NOT NULL CHECK (size_bytes = length(bytes)),
    stored_at TEXT NOT NULL
);
CREATE TRIGGER stored_files_unchangeable BEFORE UPDATE ON stored_files
BEGIN
    SELECT RAISE(ABORT, 'a stored file cannot be changed; files are kept by their SHA-256');
END;
CREATE TRIGGER stored_files_undeletable BEFORE DELETE ON stored_files
BEGIN
    SELECT RAISE(ABORT, 'a stored file cannot be removed; records name it by its SHA-256');
END;
