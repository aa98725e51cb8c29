-- Schema version 1. Frozen: later versions add migrations, never edit this file.
-- Every record table carries the same bookkeeping: a UUID, UTC timestamps, the device
-- that last wrote it, a version counted from 1, and deleted_at for soft deletion
-- (records with legal weight are never removed; their history stays in change_log).

CREATE TABLE devices (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('this', 'office', 'field')),
    created_at TEXT NOT NULL
);

CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE parcels (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    sbl TEXT NOT NULL,
    municipality TEXT NOT NULL,
    site_address TEXT NOT NULL,
    owner_name TEXT NOT NULL,
    owner_mailing_address TEXT NOT NULL,
    owner_phone TEXT,
    owner_email TEXT,
    longitude REAL,
    latitude REAL,
    is_demo INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX parcels_sbl ON parcels(sbl) WHERE deleted_at IS NULL;

CREATE TABLE renters (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    mailing_address TEXT NOT NULL DEFAULT '[]',
    phone TEXT,
    email TEXT
);
CREATE INDEX renters_parcel ON renters(parcel_id);

CREATE TABLE dwellings (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    bedrooms INTEGER NOT NULL CHECK (bedrooms >= 0),
    living_area_sqft REAL NOT NULL CHECK (living_area_sqft >= 0),
    building_area_sqft REAL,
    garbage_grinder INTEGER,
    ahj_design_bedrooms INTEGER,
    ahj_design_by TEXT,
    ahj_design_date TEXT,
    ahj_design_reason TEXT
);
CREATE UNIQUE INDEX dwellings_parcel ON dwellings(parcel_id) WHERE deleted_at IS NULL;

CREATE TABLE proposed_work (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    conveyance INTEGER,
    change_of_use INTEGER,
    bedrooms INTEGER,
    living_area_sqft REAL,
    work_area_sqft REAL
);
CREATE UNIQUE INDEX proposed_work_parcel ON proposed_work(parcel_id) WHERE deleted_at IS NULL;

CREATE TABLE systems (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    description TEXT,
    stamped_as_built INTEGER,
    as_built_reference TEXT,
    installed_year INTEGER
);
CREATE UNIQUE INDEX systems_parcel ON systems(parcel_id) WHERE deleted_at IS NULL;

CREATE TABLE components (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    system_id TEXT NOT NULL REFERENCES systems(id),
    position INTEGER NOT NULL,
    kind TEXT NOT NULL,
    condition TEXT NOT NULL,
    defects TEXT NOT NULL DEFAULT '[]',
    note TEXT,
    material TEXT,
    capacity_gal REAL,
    compartments INTEGER,
    sludge_depth_in REAL,
    scum_depth_in REAL,
    liquid_level TEXT,
    inlet_baffle TEXT,
    outlet_baffle TEXT,
    effluent_filter INTEGER,
    cracks_or_leaks INTEGER,
    risers_and_lids TEXT,
    last_pumped TEXT,
    pumped_by TEXT,
    box_level INTEGER,
    solids_present INTEGER,
    standing_effluent INTEGER,
    absorption_type TEXT,
    area_sqft REAL,
    laterals INTEGER,
    ponding_in_ports INTEGER,
    breakout INTEGER,
    wet_or_lush INTEGER,
    odor INTEGER,
    make_model TEXT,
    alarm_tested INTEGER,
    blower_running INTEGER,
    floats_working INTEGER,
    location_note TEXT
);
CREATE INDEX components_parcel ON components(parcel_id);

CREATE TABLE inspections (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    date TEXT NOT NULL,
    inspector TEXT NOT NULL,
    inspector_certification TEXT,
    reason TEXT NOT NULL,
    weather TEXT,
    occupancy TEXT,
    failure_evidence TEXT NOT NULL DEFAULT '[]',
    note TEXT
);
CREATE INDEX inspections_parcel ON inspections(parcel_id, date);

CREATE TABLE inspection_tests (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    inspection_id TEXT NOT NULL REFERENCES inspections(id),
    position INTEGER NOT NULL,
    kind TEXT NOT NULL,
    result TEXT NOT NULL,
    volume_gal REAL,
    duration_min REAL,
    note TEXT
);
CREATE INDEX inspection_tests_inspection ON inspection_tests(inspection_id);

CREATE TABLE etu_services (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    service_contract INTEGER,
    manufacturer_interval_months INTEGER,
    provider TEXT
);
CREATE UNIQUE INDEX etu_services_parcel ON etu_services(parcel_id) WHERE deleted_at IS NULL;

CREATE TABLE etu_reports (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    position INTEGER NOT NULL,
    inspection_date TEXT NOT NULL,
    report_received TEXT
);
CREATE INDEX etu_reports_parcel ON etu_reports(parcel_id);

CREATE TABLE holding_tank_services (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    hauler_contract INTEGER,
    hauler_name TEXT
);
CREATE UNIQUE INDEX holding_tank_services_parcel ON holding_tank_services(parcel_id)
    WHERE deleted_at IS NULL;

CREATE TABLE pump_outs (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    position INTEGER NOT NULL,
    date TEXT NOT NULL,
    record_received INTEGER NOT NULL,
    volume_gal REAL
);
CREATE INDEX pump_outs_parcel ON pump_outs(parcel_id);

CREATE TABLE site_observations (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    absorption_area_encroachments TEXT NOT NULL DEFAULT '[]',
    clear_water_connections TEXT NOT NULL DEFAULT '[]'
);
CREATE UNIQUE INDEX site_observations_parcel ON site_observations(parcel_id)
    WHERE deleted_at IS NULL;

CREATE TABLE ahj_determinations (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    greatest_extent_possible INTEGER
);
CREATE UNIQUE INDEX ahj_determinations_parcel ON ahj_determinations(parcel_id)
    WHERE deleted_at IS NULL;

CREATE TABLE notices (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    permit_by TEXT,
    complete_by TEXT
);
CREATE UNIQUE INDEX notices_parcel ON notices(parcel_id) WHERE deleted_at IS NULL;

CREATE TABLE site_features (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    position INTEGER NOT NULL,
    kind TEXT NOT NULL,
    geometry TEXT NOT NULL,
    crs TEXT NOT NULL,
    capture_method TEXT,
    capture_accuracy_ft REAL,
    note TEXT
);
CREATE INDEX site_features_parcel ON site_features(parcel_id);

CREATE TABLE shoreline_layers (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    accuracy_ft REAL NOT NULL CHECK (accuracy_ft >= 0),
    layer_version INTEGER NOT NULL,
    active INTEGER NOT NULL DEFAULT 0,
    imported_at TEXT NOT NULL,
    imported_by TEXT NOT NULL,
    source_crs TEXT NOT NULL,
    geometry_kind TEXT NOT NULL CHECK (geometry_kind IN ('water_body', 'line')),
    geometry TEXT NOT NULL,
    vertex_count INTEGER NOT NULL
);
CREATE UNIQUE INDEX shoreline_layers_active ON shoreline_layers(active) WHERE active = 1;

CREATE TABLE lake_measurements (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    distance_ft REAL NOT NULL CHECK (distance_ft >= 0),
    method TEXT NOT NULL CHECK (method IN ('map', 'tape', 'survey', 'rangefinder')),
    shoreline_layer_id TEXT REFERENCES shoreline_layers(id),
    shoreline_layer_version INTEGER,
    accuracy_ft REAL,
    measured_by TEXT NOT NULL,
    measured_on TEXT NOT NULL,
    note TEXT
);
CREATE INDEX lake_measurements_parcel ON lake_measurements(parcel_id);

CREATE TABLE attachments (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
    filename TEXT NOT NULL,
    media_type TEXT NOT NULL,
    size_bytes INTEGER NOT NULL,
    caption TEXT,
    inspection_id TEXT REFERENCES inspections(id),
    component_id TEXT REFERENCES components(id)
);
CREATE INDEX attachments_parcel ON attachments(parcel_id);

CREATE TABLE letters (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    kind TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('draft', 'issued')),
    letter_date TEXT NOT NULL,
    recipient TEXT NOT NULL,
    case_version INTEGER NOT NULL,
    issued_by TEXT,
    issued_at TEXT,
    sha256 TEXT,
    pdf BLOB,
    replaces_letter_id TEXT REFERENCES letters(id),
    printed_at TEXT
);
CREATE INDEX letters_parcel ON letters(parcel_id);

-- An issued letter is a legal record: its content never changes and it is never removed.
-- Only the printed_at stamp may be set on it.
CREATE TRIGGER letters_issued_immutable BEFORE UPDATE ON letters
WHEN OLD.status = 'issued' AND (
    NEW.status IS NOT OLD.status OR NEW.pdf IS NOT OLD.pdf OR NEW.sha256 IS NOT OLD.sha256
    OR NEW.kind IS NOT OLD.kind OR NEW.recipient IS NOT OLD.recipient
    OR NEW.letter_date IS NOT OLD.letter_date OR NEW.case_version IS NOT OLD.case_version
    OR NEW.issued_by IS NOT OLD.issued_by OR NEW.issued_at IS NOT OLD.issued_at
    OR NEW.deleted_at IS NOT OLD.deleted_at OR NEW.parcel_id IS NOT OLD.parcel_id)
BEGIN
    SELECT RAISE(ABORT, 'an issued letter cannot be changed; issue a correction instead');
END;
CREATE TRIGGER letters_issued_undeletable BEFORE DELETE ON letters
WHEN OLD.status = 'issued'
BEGIN
    SELECT RAISE(ABORT, 'an issued letter cannot be deleted');
END;

-- The change log: append-only, written in the same transaction as the change it records.
CREATE TABLE change_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    change_id TEXT NOT NULL UNIQUE,
    at TEXT NOT NULL,
    user TEXT NOT NULL,
    device_id TEXT NOT NULL,
    table_name TEXT NOT NULL,
    record_id TEXT NOT NULL,
    parcel_id TEXT,
    op TEXT NOT NULL CHECK (op IN ('insert', 'update', 'delete')),
    field TEXT,
    old_value TEXT,
    new_value TEXT,
    record_version INTEGER NOT NULL
);
CREATE INDEX change_log_parcel ON change_log(parcel_id, seq);
CREATE INDEX change_log_record ON change_log(record_id, seq);
CREATE TRIGGER change_log_no_update BEFORE UPDATE ON change_log
BEGIN
    SELECT RAISE(ABORT, 'the change log is append-only');
END;
CREATE TRIGGER change_log_no_delete BEFORE DELETE ON change_log
BEGIN
    SELECT RAISE(ABORT, 'the change log is append-only');
END;
