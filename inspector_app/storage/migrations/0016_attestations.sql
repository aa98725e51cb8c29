-- The attestation of a report of findings (Chapter 202, Article III: a report "attested to
-- by a design professional or an on-site training network certified inspector").
--
-- An attestation names the inspection it attests, the person (name, kind, certification
-- or licence number), the day, and the signature: an image drawn in the app or scanned,
-- kept in the data folder's attachments by its SHA-256 as photos are. It is recorded once
-- and never changed or removed; a new attestation is recorded instead. The records the
-- person attested are those of `case_version` (the parcel's change-log position then).
CREATE TABLE attestations (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    inspection_id TEXT NOT NULL REFERENCES inspections(id),
    attester_name TEXT NOT NULL,
    attester_kind TEXT NOT NULL
        CHECK (attester_kind IN ('design_professional', 'certified_inspector')),
    attester_number TEXT NOT NULL,
    attested_on TEXT NOT NULL,
    signature_sha256 TEXT NOT NULL CHECK (length(signature_sha256) = 64),
    signature_source TEXT NOT NULL CHECK (signature_source IN ('drawn', 'scanned')),
    signature_filename TEXT NOT NULL,
    signature_media_type TEXT NOT NULL,
    case_version INTEGER NOT NULL
);
CREATE INDEX attestations_parcel ON attestations(parcel_id);
CREATE TRIGGER attestations_unchangeable BEFORE UPDATE ON attestations
BEGIN
    SELECT RAISE(ABORT, 'an attestation cannot be changed; record a new one instead');
END;
CREATE TRIGGER attestations_undeletable BEFORE DELETE ON attestations
BEGIN
    SELECT RAISE(ABORT, 'an attestation cannot be deleted');
END;

-- An issued report of findings keeps the attestation it carries and its signature's
-- SHA-256; like the rest of an issued letter, they never change.
ALTER TABLE letters ADD COLUMN attestation_id TEXT REFERENCES attestations(id);
ALTER TABLE letters ADD COLUMN signature_sha256 TEXT
    CHECK (signature_sha256 IS NULL OR length(signature_sha256) = 64);
CREATE TRIGGER letters_issued_attestation_immutable BEFORE UPDATE ON letters
WHEN OLD.status = 'issued' AND (NEW.attestation_id IS NOT OLD.attestation_id
                                OR NEW.signature_sha256 IS NOT OLD.signature_sha256)
BEGIN
    SELECT RAISE(ABORT, 'an issued letter cannot be changed; issue a correction instead');
END;
