-- Schema version 15.
--
-- How each issued letter was served, and what became of it: each event a record of its
-- own beside the letter (the letter never changes). 'served': by first-class mail,
-- certified mail (its article number), hand delivery (to whom) or posting (where), on a
-- date; 'delivered': delivery confirmed (a return receipt: signed by whom), on a date;
-- 'returned': returned undelivered (why), on a date. Events are never changed or removed:
-- one recorded in error is answered by the next.
CREATE TABLE letter_service (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    letter_id TEXT NOT NULL REFERENCES letters(id),
    event TEXT NOT NULL CHECK (event IN ('served', 'delivered', 'returned')),
    method TEXT CHECK (method IN ('first_class_mail', 'certified_mail', 'hand_delivery',
                                  'posting')),
    article_number TEXT,
    delivered_to TEXT,
    posted_at TEXT,
    signed_by TEXT,
    reason TEXT,
    event_date TEXT NOT NULL,
    recorded_by TEXT NOT NULL
);
CREATE INDEX letter_service_letter ON letter_service(letter_id);
CREATE INDEX letter_service_parcel ON letter_service(parcel_id);

CREATE TRIGGER letter_service_unchangeable BEFORE UPDATE ON letter_service
BEGIN
    SELECT RAISE(ABORT, 'a recorded service of a letter cannot be changed; record the next event instead');
END;
CREATE TRIGGER letter_service_undeletable BEFORE DELETE ON letter_service
BEGIN
    SELECT RAISE(ABORT, 'a recorded service of a letter cannot be deleted');
END;
