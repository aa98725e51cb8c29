-- Schema version 21.
--
-- Records written outside the office (Chapter 202, § 202-8): the ETU service reports of
-- certified manufacturer's representatives (§ 202-8 A) and the pump-out records of
-- NYSDEC-permitted septage haulers (§ 202-8 B), taken in from the files they send.
--
-- The providers the office knows: an ETU representative's certification, a hauler's
-- NYSDEC permit, a private inspector's certification. A record naming a number the office
-- does not know, or one no longer valid on the record's date, is refused. A provider is
-- never removed: records name it.
CREATE TABLE providers (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    kind TEXT NOT NULL CHECK (kind IN ('etu-representative', 'hauler', 'inspector')),
    name TEXT NOT NULL,
    number TEXT NOT NULL,
    company TEXT,
    valid_through TEXT
);
CREATE UNIQUE INDEX providers_number ON providers(kind, number) WHERE deleted_at IS NULL;
CREATE TRIGGER providers_undeletable BEFORE DELETE ON providers
BEGIN
    SELECT RAISE(ABORT, 'a provider cannot be deleted; records name it');
END;

-- A file taken in, kept by its SHA-256 (the bytes as photos are kept: under attachments/
-- in a data folder, in stored_files at an office database). Recorded once, never changed:
-- the same file again is recognised and stores nothing.
CREATE TABLE received_documents (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    sha256 TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
    kind TEXT NOT NULL CHECK (kind IN ('etu-service', 'pump-out')),
    filename TEXT NOT NULL,
    media_type TEXT NOT NULL,
    size_bytes INTEGER NOT NULL CHECK (size_bytes >= 0),
    received_on TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    imported_by TEXT NOT NULL,
    records INTEGER NOT NULL CHECK (records >= 0),
    refused INTEGER NOT NULL CHECK (refused >= 0)
);
CREATE TRIGGER received_documents_unchangeable BEFORE UPDATE ON received_documents
BEGIN
    SELECT RAISE(ABORT, 'a received document cannot be changed');
END;
CREATE TRIGGER received_documents_undeletable BEFORE DELETE ON received_documents
BEGIN
    SELECT RAISE(ABORT, 'a received document cannot be deleted');
END;

-- An ETU inspection as its report states it: the representative (certification number and
-- name as registered then), the unit, whether it was certified fully functional, the
-- service contract's end, and the document it came from.
ALTER TABLE etu_reports ADD COLUMN provider_number TEXT;
ALTER TABLE etu_reports ADD COLUMN provider_name TEXT;
ALTER TABLE etu_reports ADD COLUMN unit TEXT;
ALTER TABLE etu_reports ADD COLUMN fully_functional INTEGER;
ALTER TABLE etu_reports ADD COLUMN service_contract_through TEXT;
ALTER TABLE etu_reports ADD COLUMN document TEXT
    CHECK (document IS NULL OR length(document) = 64);

-- A pump-out as its record states it: the hauler's permit and name, the day the record
-- was received, and the document it came from.
ALTER TABLE pump_outs ADD COLUMN hauler_permit TEXT;
ALTER TABLE pump_outs ADD COLUMN hauler_name TEXT;
ALTER TABLE pump_outs ADD COLUMN record_received_on TEXT;
ALTER TABLE pump_outs ADD COLUMN document TEXT
    CHECK (document IS NULL OR length(document) = 64);
