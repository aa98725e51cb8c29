-- Schema version 2: the inspector's decision on each suggested finding.
CREATE TABLE finding_decisions (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    suggestion_key TEXT NOT NULL,
    decision TEXT NOT NULL CHECK (decision IN ('accepted', 'rejected')),
    defect TEXT NOT NULL,
    citation TEXT NOT NULL,
    decided_by TEXT NOT NULL,
    decided_on TEXT NOT NULL,
    note TEXT
);
CREATE UNIQUE INDEX finding_decisions_key ON finding_decisions(parcel_id, suggestion_key)
    WHERE deleted_at IS NULL;



