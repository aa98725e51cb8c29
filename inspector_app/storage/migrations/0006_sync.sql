-- Schema version 6: field <-> office sync.
-- Each device numbers its own changes (device_seq) so the office can spot gaps.
ALTER TABLE change_log ADD COLUMN device_seq INTEGER;
CREATE UNIQUE INDEX change_log_device_seq ON change_log(device_id, device_seq)
    WHERE device_seq IS NOT NULL;

-- Keys: this device's signing key; an office's enrolled laptops and their keys; on a
-- laptop, the office that enrolled it and the office's key.
ALTER TABLE devices ADD COLUMN secret TEXT;
ALTER TABLE devices ADD COLUMN parcels TEXT NOT NULL DEFAULT '[]';
-- Office side: the highest office change (seq) this laptop has acknowledged receiving.
-- Laptop side (on the office's row): the highest of our own changes the office has
-- acknowledged.
ALTER TABLE devices ADD COLUMN acknowledged_seq INTEGER NOT NULL DEFAULT 0;

CREATE TABLE sync_packages (
    package_id TEXT PRIMARY KEY,
    device_id TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    imported_by TEXT NOT NULL,
    changes INTEGER NOT NULL,
    applied INTEGER NOT NULL,
    conflicts INTEGER NOT NULL,
    sha256 TEXT NOT NULL
);

-- Every change ever received, whatever became of it: applying a change twice is
-- impossible because its id is remembered here.
CREATE TABLE sync_received (
    change_id TEXT PRIMARY KEY,
    device_id TEXT NOT NULL,
    device_seq INTEGER,
    package_id TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('applied', 'same_value', 'conflict', 'skipped'))
);
CREATE INDEX sync_received_device ON sync_received(device_id, device_seq);

CREATE TABLE sync_conflicts (
    id TEXT PRIMARY KEY,
    parcel_id TEXT,
    table_name TEXT NOT NULL,
    record_id TEXT NOT NULL,
    field TEXT NOT NULL,
    base_value TEXT,
    local_value TEXT,
    incoming_value TEXT,
    change_id TEXT NOT NULL,
    device_id TEXT NOT NULL,
    incoming_user TEXT NOT NULL,
    incoming_at TEXT NOT NULL,
    received_at TEXT NOT NULL,
    resolved_at TEXT,
    resolved_by TEXT,
    resolution TEXT CHECK (resolution IN ('keep_local', 'take_incoming', 'enter_value')),
    resolved_value TEXT
);
CREATE INDEX sync_conflicts_open ON sync_conflicts(parcel_id) WHERE resolved_at IS NULL;
