-- Schema version 9: laptops' assignments in tables of their own, and the clearing of
-- owners' and renters' contact data a laptop no longer needs, history included.

-- Every change of a laptop's assignment, never changed or removed.
-- At the office: one row per revision (who changed it and when, the parcel ids added and
-- removed); the laptop's parcels now stay in `devices.parcels`, and the revision it said
-- it holds in `devices.assignment_held`.
-- On a laptop: one row per assignment it took from an office package (when, who imported
-- it, the parcel ids added and removed since the one before), with the assignment as the
-- office sent it (`parcels`, `office_seq`: the office's change count in that package);
-- the newest row is the assignment it holds.
CREATE TABLE device_assignments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    device_id TEXT NOT NULL,
    revision INTEGER NOT NULL CHECK (revision >= 0),
    at TEXT NOT NULL,
    user TEXT NOT NULL,
    device_name TEXT NOT NULL,
    added TEXT NOT NULL DEFAULT '[]',
    removed TEXT NOT NULL DEFAULT '[]',
    parcels TEXT,
    office_seq INTEGER
);
CREATE UNIQUE INDEX device_assignments_revision ON device_assignments(device_id, revision)
    WHERE parcels IS NULL;
CREATE INDEX device_assignments_device ON device_assignments(device_id, id);
CREATE TRIGGER device_assignments_no_update BEFORE UPDATE ON device_assignments
BEGIN
    SELECT RAISE(ABORT, 'the assignment history is append-only');
END;
CREATE TRIGGER device_assignments_no_delete BEFORE DELETE ON device_assignments
BEGIN
    SELECT RAISE(ABORT, 'the assignment history is append-only');
END;
ALTER TABLE devices ADD COLUMN assignment_held INTEGER NOT NULL DEFAULT 0;

-- On a laptop: each clearing of a parcel's contact data (when, by whom), and when the
-- parcel, assigned again, brought it back.
CREATE TABLE contact_clearings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    parcel_id TEXT NOT NULL REFERENCES parcels(id),
    sbl TEXT NOT NULL,
    cleared_at TEXT NOT NULL,
    cleared_by TEXT NOT NULL,
    restored_at TEXT,
    restored_by TEXT
);
CREATE UNIQUE INDEX contact_clearings_open ON contact_clearings(parcel_id)
    WHERE restored_at IS NULL;
-- Which copies a clearing emptied: a change-log row (by change id) or a sync conflict
-- (by id), and which of their values (`old_value`, `new_value`, or `new_value.<key>` of
-- a whole record).
CREATE TABLE cleared_copies (
    clearing_id INTEGER NOT NULL REFERENCES contact_clearings(id),
    table_name TEXT NOT NULL CHECK (table_name IN ('change_log', 'sync_conflicts')),
    row_id TEXT NOT NULL,
    cleared TEXT NOT NULL,
    PRIMARY KEY (clearing_id, table_name, row_id)
);
CREATE INDEX cleared_copies_row ON cleared_copies(table_name, row_id);

-- The change log stays append-only, with one exception: on a laptop (`sync_role` field),
-- while a clearing is under way (the `change_log_clearing` row of `meta`, written and
-- removed inside its transaction), a value of an owner's or renter's telephone number,
-- e-mail address or renter's mailing address may be set to null, and nothing else of the
-- row may change. (Only SQLite's core string functions can be used in a trigger here.)
DROP TRIGGER change_log_no_update;
CREATE TRIGGER change_log_no_update BEFORE UPDATE ON change_log
WHEN (
    EXISTS (SELECT 1 FROM meta WHERE key = 'change_log_clearing')
    AND EXISTS (SELECT 1 FROM meta WHERE key = 'sync_role' AND value = 'field')
    AND NEW.seq IS OLD.seq AND NEW.change_id IS OLD.change_id AND NEW.at IS OLD.at
    AND NEW.user IS OLD.user AND NEW.device_id IS OLD.device_id
    AND NEW.table_name IS OLD.table_name AND NEW.record_id IS OLD.record_id
    AND NEW.parcel_id IS OLD.parcel_id AND NEW.op IS OLD.op AND NEW.field IS OLD.field
    AND NEW.record_version IS OLD.record_version AND NEW.device_seq IS OLD.device_seq
    AND (
        (OLD.op = 'update'
         AND ((OLD.table_name = 'parcels' AND OLD.field IN ('owner_phone', 'owner_email'))
              OR (OLD.table_name = 'renters'
                  AND OLD.field IN ('phone', 'email', 'mailing_address')))
         AND (NEW.old_value IS NULL OR NEW.old_value IS OLD.old_value)
         AND (NEW.new_value IS NULL OR NEW.new_value IS OLD.new_value))
        -- a new record's values: one of them, a string, set to null; every other byte of
        -- the row as it was (one value a statement)
        OR (OLD.op = 'insert' AND NEW.old_value IS OLD.old_value AND (
            (OLD.table_name = 'parcels' AND instr(OLD.new_value, '"owner_phone":') > 0
             AND substr(NEW.new_value, 1, instr(OLD.new_value, '"owner_phone":') + 13)
                 = substr(OLD.new_value, 1, instr(OLD.new_value, '"owner_phone":') + 13)
             AND substr(NEW.new_value, instr(OLD.new_value, '"owner_phone":') + 14, 4) = 'null'
             AND substr(NEW.new_value, instr(OLD.new_value, '"owner_phone":') + 18, 1) IN (',', '}')
             AND (length(OLD.new_value) - length(NEW.new_value) + 4) >= 2
             AND substr(OLD.new_value, length(OLD.new_value) - length(NEW.new_value) + instr(OLD.new_value, '"owner_phone":') + 18)
                 = substr(NEW.new_value, instr(OLD.new_value, '"owner_phone":') + 18)
             AND substr(substr(OLD.new_value, instr(OLD.new_value, '"owner_phone":') + 14, (length(OLD.new_value) - length(NEW.new_value) + 4)), 1, 1) = '"' AND substr(substr(OLD.new_value, instr(OLD.new_value, '"owner_phone":') + 14, (length(OLD.new_value) - length(NEW.new_value) + 4)), (length(OLD.new_value) - length(NEW.new_value) + 4), 1) = '"'
             AND instr(replace(replace(substr(substr(OLD.new_value, instr(OLD.new_value, '"owner_phone":') + 14, (length(OLD.new_value) - length(NEW.new_value) + 4)), 2, (length(OLD.new_value) - length(NEW.new_value) + 4) - 2), '\\', ''), '\"', ''), '"') = 0
             AND substr(replace(substr(substr(OLD.new_value, instr(OLD.new_value, '"owner_phone":') + 14, (length(OLD.new_value) - length(NEW.new_value) + 4)), 2, (length(OLD.new_value) - length(NEW.new_value) + 4) - 2), '\\', ''), -1, 1) <> '\')
            OR
            (OLD.table_name = 'parcels' AND instr(OLD.new_value, '"owner_email":') > 0
             AND substr(NEW.new_value, 1, instr(OLD.new_value, '"owner_email":') + 13)
                 = substr(OLD.new_value, 1, instr(OLD.new_value, '"owner_email":') + 13)
             AND substr(NEW.new_value, instr(OLD.new_value, '"owner_email":') + 14, 4) = 'null'
             AND substr(NEW.new_value, instr(OLD.new_value, '"owner_email":') + 18, 1) IN (',', '}')
             AND (length(OLD.new_value) - length(NEW.new_value) + 4) >= 2
             AND substr(OLD.new_value, length(OLD.new_value) - length(NEW.new_value) + instr(OLD.new_value, '"owner_email":') + 18)
                 = substr(NEW.new_value, instr(OLD.new_value, '"owner_email":') + 18)
             AND substr(substr(OLD.new_value, instr(OLD.new_value, '"owner_email":') + 14, (length(OLD.new_value) - length(NEW.new_value) + 4)), 1, 1) = '"' AND substr(substr(OLD.new_value, instr(OLD.new_value, '"owner_email":') + 14, (length(OLD.new_value) - length(NEW.new_value) + 4)), (length(OLD.new_value) - length(NEW.new_value) + 4), 1) = '"'
             AND instr(replace(replace(substr(substr(OLD.new_value, instr(OLD.new_value, '"owner_email":') + 14, (length(OLD.new_value) - length(NEW.new_value) + 4)), 2, (length(OLD.new_value) - length(NEW.new_value) + 4) - 2), '\\', ''), '\"', ''), '"') = 0
             AND substr(replace(substr(substr(OLD.new_value, instr(OLD.new_value, '"owner_email":') + 14, (length(OLD.new_value) - length(NEW.new_value) + 4)), 2, (length(OLD.new_value) - length(NEW.new_value) + 4) - 2), '\\', ''), -1, 1) <> '\')
            OR
            (OLD.table_name = 'renters' AND instr(OLD.new_value, '"phone":') > 0
             AND substr(NEW.new_value, 1, instr(OLD.new_value, '"phone":') + 7)
                 = substr(OLD.new_value, 1, instr(OLD.new_value, '"phone":') + 7)
             AND substr(NEW.new_value, instr(OLD.new_value, '"phone":') + 8, 4) = 'null'
             AND substr(NEW.new_value, instr(OLD.new_value, '"phone":') + 12, 1) IN (',', '}')
             AND (length(OLD.new_value) - length(NEW.new_value) + 4) >= 2
             AND substr(OLD.new_value, length(OLD.new_value) - length(NEW.new_value) + instr(OLD.new_value, '"phone":') + 12)
                 = substr(NEW.new_value, instr(OLD.new_value, '"phone":') + 12)
             AND substr(substr(OLD.new_value, instr(OLD.new_value, '"phone":') + 8, (length(OLD.new_value) - length(NEW.new_value) + 4)), 1, 1) = '"' AND substr(substr(OLD.new_value, instr(OLD.new_value, '"phone":') + 8, (length(OLD.new_value) - length(NEW.new_value) + 4)), (length(OLD.new_value) - length(NEW.new_value) + 4), 1) = '"'
             AND instr(replace(replace(substr(substr(OLD.new_value, instr(OLD.new_value, '"phone":') + 8, (length(OLD.new_value) - length(NEW.new_value) + 4)), 2, (length(OLD.new_value) - length(NEW.new_value) + 4) - 2), '\\', ''), '\"', ''), '"') = 0
             AND substr(replace(substr(substr(OLD.new_value, instr(OLD.new_value, '"phone":') + 8, (length(OLD.new_value) - length(NEW.new_value) + 4)), 2, (length(OLD.new_value) - length(NEW.new_value) + 4) - 2), '\\', ''), -1, 1) <> '\')
            OR
            (OLD.table_name = 'renters' AND instr(OLD.new_value, '"email":') > 0
             AND substr(NEW.new_value, 1, instr(OLD.new_value, '"email":') + 7)
                 = substr(OLD.new_value, 1, instr(OLD.new_value, '"email":') + 7)
             AND substr(NEW.new_value, instr(OLD.new_value, '"email":') + 8, 4) = 'null'
             AND substr(NEW.new_value, instr(OLD.new_value, '"email":') + 12, 1) IN (',', '}')
             AND (length(OLD.new_value) - length(NEW.new_value) + 4) >= 2
             AND substr(OLD.new_value, length(OLD.new_value) - length(NEW.new_value) + instr(OLD.new_value, '"email":') + 12)
                 = substr(NEW.new_value, instr(OLD.new_value, '"email":') + 12)
             AND substr(substr(OLD.new_value, instr(OLD.new_value, '"email":') + 8, (length(OLD.new_value) - length(NEW.new_value) + 4)), 1, 1) = '"' AND substr(substr(OLD.new_value, instr(OLD.new_value, '"email":') + 8, (length(OLD.new_value) - length(NEW.new_value) + 4)), (length(OLD.new_value) - length(NEW.new_value) + 4), 1) = '"'
             AND instr(replace(replace(substr(substr(OLD.new_value, instr(OLD.new_value, '"email":') + 8, (length(OLD.new_value) - length(NEW.new_value) + 4)), 2, (length(OLD.new_value) - length(NEW.new_value) + 4) - 2), '\\', ''), '\"', ''), '"') = 0
             AND substr(replace(substr(substr(OLD.new_value, instr(OLD.new_value, '"email":') + 8, (length(OLD.new_value) - length(NEW.new_value) + 4)), 2, (length(OLD.new_value) - length(NEW.new_value) + 4) - 2), '\\', ''), -1, 1) <> '\')
            OR
            (OLD.table_name = 'renters' AND instr(OLD.new_value, '"mailing_address":') > 0
             AND substr(NEW.new_value, 1, instr(OLD.new_value, '"mailing_address":') + 17)
                 = substr(OLD.new_value, 1, instr(OLD.new_value, '"mailing_address":') + 17)
             AND substr(NEW.new_value, instr(OLD.new_value, '"mailing_address":') + 18, 4) = 'null'
             AND substr(NEW.new_value, instr(OLD.new_value, '"mailing_address":') + 22, 1) IN (',', '}')
             AND (length(OLD.new_value) - length(NEW.new_value) + 4) >= 2
             AND substr(OLD.new_value, length(OLD.new_value) - length(NEW.new_value) + instr(OLD.new_value, '"mailing_address":') + 22)
                 = substr(NEW.new_value, instr(OLD.new_value, '"mailing_address":') + 22)
             AND substr(substr(OLD.new_value, instr(OLD.new_value, '"mailing_address":') + 18, (length(OLD.new_value) - length(NEW.new_value) + 4)), 1, 1) = '"' AND substr(substr(OLD.new_value, instr(OLD.new_value, '"mailing_address":') + 18, (length(OLD.new_value) - length(NEW.new_value) + 4)), (length(OLD.new_value) - length(NEW.new_value) + 4), 1) = '"'
             AND instr(replace(replace(substr(substr(OLD.new_value, instr(OLD.new_value, '"mailing_address":') + 18, (length(OLD.new_value) - length(NEW.new_value) + 4)), 2, (length(OLD.new_value) - length(NEW.new_value) + 4) - 2), '\\', ''), '\"', ''), '"') = 0
             AND substr(replace(substr(substr(OLD.new_value, instr(OLD.new_value, '"mailing_address":') + 18, (length(OLD.new_value) - length(NEW.new_value) + 4)), 2, (length(OLD.new_value) - length(NEW.new_value) + 4) - 2), '\\', ''), -1, 1) <> '\')
        ))
    )
) IS NOT 1  -- refused unless the clearing is certainly allowed (NULL is not)
BEGIN
    SELECT RAISE(ABORT, 'the change log is append-only');
END;

-- The assignment state kept in `meta` until now moves here.
-- At the office (`sync_assignment:<device id>`): its changes, with the tax map numbers
-- they named turned into parcel ids, and the revision the laptop said it holds.
INSERT INTO device_assignments (device_id, revision, at, user, device_name, added, removed)
    SELECT substr(m.key, 17), json_extract(e.value, '$.revision'),
           json_extract(e.value, '$.at'), json_extract(e.value, '$.user'),
           coalesce((SELECT name FROM devices WHERE id = substr(m.key, 17)), ''),
           (SELECT json_group_array(p.id) FROM json_each(e.value, '$.added') a
                JOIN parcels p ON p.sbl = a.value),
           (SELECT json_group_array(p.id) FROM json_each(e.value, '$.removed') a
                JOIN parcels p ON p.sbl = a.value)
    FROM meta m, json_each(m.value, '$.events') e
    WHERE m.key LIKE 'sync_assignment:%' ORDER BY m.key, e.key;
UPDATE devices SET assignment_held = coalesce((
    SELECT json_extract(m.value, '$.laptop_revision') FROM meta m
    WHERE m.key = 'sync_assignment:' || devices.id), 0);
-- On a laptop (`sync_assignment`): the assignment it holds.
INSERT INTO device_assignments (device_id, revision, at, user, device_name, added, removed,
                                parcels, office_seq)
    SELECT d.id, json_extract(m.value, '$.revision'),
           strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), '(schema 9 upgrade)', d.name,
           json_extract(m.value, '$.parcels'), '[]', json_extract(m.value, '$.parcels'),
           json_extract(m.value, '$.seq_through')
    FROM meta m JOIN devices d ON d.role = 'this' WHERE m.key = 'sync_assignment';
-- On a laptop (`sync_purged`): the parcels whose contact data it cleared.
INSERT INTO contact_clearings (parcel_id, sbl, cleared_at, cleared_by)
    SELECT e.key, json_extract(e.value, '$.sbl'), json_extract(e.value, '$.at'),
           json_extract(e.value, '$.by')
    FROM meta m, json_each(m.value) e
    WHERE m.key = 'sync_purged' AND e.key IN (SELECT id FROM parcels);
DELETE FROM meta WHERE key LIKE 'sync_assignment:%' OR key IN ('sync_assignment',
                                                               'sync_purged');
