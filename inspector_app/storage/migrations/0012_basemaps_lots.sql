-- Schema version 12: offline aerial imagery (basemaps), the county's tax-parcel lines (lot
-- layers, versioned like shoreline layers) and the office's settings for them.
--
-- A basemap is a record naming an image file: one the data folder holds a copy of
-- (storage 'copy', path relative to the data folder) or one it only refers to (storage
-- 'reference', an absolute path, checked against its size and fingerprint when read).
CREATE TABLE basemaps (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    name TEXT NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('geotiff', 'world_file', 'mbtiles')),
    storage TEXT NOT NULL CHECK (storage IN ('copy', 'reference')),
    path TEXT NOT NULL,
    size_bytes INTEGER NOT NULL CHECK (size_bytes >= 0),
    fingerprint TEXT NOT NULL,
    source TEXT NOT NULL,
    captured_on TEXT,
    source_crs TEXT NOT NULL,
    -- the image's extent in EPSG:2261 feet, JSON [minx, miny, maxx, maxy]
    bounds TEXT NOT NULL,
    resolution_ft REAL NOT NULL CHECK (resolution_ft > 0),
    width_px INTEGER NOT NULL CHECK (width_px > 0),
    height_px INTEGER NOT NULL CHECK (height_px > 0),
    active INTEGER NOT NULL DEFAULT 0,
    imported_at TEXT NOT NULL,
    imported_by TEXT NOT NULL
);
CREATE UNIQUE INDEX basemaps_active ON basemaps(active) WHERE active = 1;

-- A layer of lot lines: one import of the county's parcel polygons.
CREATE TABLE lot_layers (
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
    sbl_field TEXT NOT NULL,
    feature_count INTEGER NOT NULL CHECK (feature_count >= 0),
    matched_count INTEGER NOT NULL CHECK (matched_count >= 0),
    -- SHA-256 over the layer's lot_lines rows, in fid order: what the layer record vouches for
    digest TEXT NOT NULL CHECK (length(digest) = 64)
);
CREATE UNIQUE INDEX lot_layers_active ON lot_layers(active) WHERE active = 1;

-- The lots of a layer, as imported: never changed or removed (a new import is a new
-- layer version). parcel_id is the parcel the lot's SBL matched when it was imported.
CREATE TABLE lot_lines (
    layer_id TEXT NOT NULL REFERENCES lot_layers(id),
    fid INTEGER NOT NULL,
    sbl TEXT,
    parcel_id TEXT REFERENCES parcels(id),
    geometry BLOB NOT NULL,
    minx REAL NOT NULL, miny REAL NOT NULL, maxx REAL NOT NULL, maxy REAL NOT NULL,
    PRIMARY KEY (layer_id, fid)
);
CREATE INDEX lot_lines_parcel ON lot_lines(parcel_id) WHERE parcel_id IS NOT NULL;
CREATE INDEX lot_lines_minx ON lot_lines(layer_id, minx);
CREATE TRIGGER lot_lines_no_update BEFORE UPDATE ON lot_lines
BEGIN
    SELECT RAISE(ABORT, 'lot_lines are kept as imported: import a new layer version');
END;
CREATE TRIGGER lot_lines_no_delete BEFORE DELETE ON lot_lines
BEGIN
    SELECT RAISE(ABORT, 'lot_lines are kept as imported: import a new layer version');
END;

-- Separations measured against a lot layer's lot line, kept as evidence like map distances
-- to the lake line: the layer, its version and accuracy, who measured and when.
CREATE TABLE lot_measurements (
    id TEXT PRIMARY KEY, parcel_id TEXT NOT NULL REFERENCES parcels(id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    component TEXT NOT NULL,
    ordinal INTEGER NOT NULL CHECK (ordinal >= 1),
    distance_ft REAL NOT NULL CHECK (distance_ft >= 0),
    accuracy_ft REAL NOT NULL CHECK (accuracy_ft >= 0),
    lot_layer_id TEXT NOT NULL REFERENCES lot_layers(id),
    lot_layer_version INTEGER NOT NULL,
    measured_by TEXT NOT NULL,
    measured_on TEXT NOT NULL
);
CREATE INDEX lot_measurements_parcel ON lot_measurements(parcel_id);

-- The office's settings (one row per key; a change is an update, logged like any record).
CREATE TABLE office_settings (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, device_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted_at TEXT,
    key TEXT NOT NULL UNIQUE,
    value TEXT NOT NULL
);
