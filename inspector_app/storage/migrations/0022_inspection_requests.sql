-- Inspections requested of the office ahead of a date: a conveyance's closing, a
-- complaint, or any other reason an inspection is made for (the words of an inspection's
-- own reason). A request belongs to a parcel and is taken at the office. It is answered by
-- the parcel's first inspection dated on or after the day it was requested (worked out
-- from the inspections, never a mark set by hand), or withdrawn: cancelled, with who, when
-- and why (a change of its own, logged field by field like any other). Nothing is removed.
CREATE TABLE inspection_requests (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    reason TEXT NOT NULL,
    due TEXT NOT NULL,
    requested_by TEXT,
    requested_on TEXT NOT NULL,
    cancelled_on TEXT,
    cancelled_by TEXT,
    cancel_reason TEXT
);
CREATE INDEX inspection_requests_parcel ON inspection_requests(parcel_id);
CREATE INDEX inspection_requests_due ON inspection_requests(due);
CREATE TRIGGER inspection_requests_undeletable BEFORE DELETE ON inspection_requests
BEGIN
    SELECT RAISE(ABORT, 'an inspection request cannot be deleted; cancel it instead');
END;
