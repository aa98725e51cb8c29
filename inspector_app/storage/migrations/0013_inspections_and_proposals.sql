-- Schema version 13.
--
-- An inspection entered in error is marked void: who, on which day and why. It stays on
-- record (with its history) and is read as no inspection; clearing the mark undoes it.
ALTER TABLE inspections ADD COLUMN void_reason TEXT;
ALTER TABLE inspections ADD COLUMN voided_by TEXT;
ALTER TABLE inspections ADD COLUMN voided_on TEXT;

-- A parcel a laptop found in the field (not on the roll) is a proposal. On the laptop: its
-- own proposals and what the office decided. At the office: each proposal received, held
-- with the changes made on it until a person accepts it (added to the roll and assigned to
-- that laptop) or rejects it (the laptop is told, and keeps it visible as rejected).
CREATE TABLE parcel_proposals (
    parcel_id TEXT PRIMARY KEY,
    sbl TEXT NOT NULL,
    device_id TEXT NOT NULL,
    proposed_at TEXT NOT NULL,
    proposed_by TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected')),
    decided_at TEXT,
    decided_by TEXT,
    note TEXT
);

-- Changes received and kept aside for a person instead of applied: the records of a
-- proposed parcel (reason 'proposal'), or, on a laptop, a change from the office that this
-- laptop's rules refuse (reason 'refused', with the refusal in words). Each is kept whole,
-- as the package carried it, and counts as received: a package never stops on it.
CREATE TABLE held_changes (
    change_id TEXT PRIMARY KEY,
    device_id TEXT NOT NULL,
    device_seq INTEGER,
    package_id TEXT NOT NULL,
    table_name TEXT NOT NULL,
    record_id TEXT NOT NULL,
    op TEXT NOT NULL,
    parcel_id TEXT,
    reason TEXT NOT NULL CHECK (reason IN ('proposal', 'refused')),
    problem TEXT,
    change TEXT NOT NULL,
    received_at TEXT NOT NULL,
    released_at TEXT,
    released_by TEXT,
    outcome TEXT
);
CREATE INDEX held_changes_parcel ON held_changes(parcel_id);
CREATE INDEX held_changes_device ON held_changes(device_id, device_seq);
CREATE INDEX held_changes_record ON held_changes(table_name, record_id);
