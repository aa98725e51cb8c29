-- Schema version 3: where each component is (GeoJSON, WGS84), for setback checks.
ALTER TABLE components ADD COLUMN geometry TEXT;
