-- A photo as evidence: what its camera wrote in it (the time it was taken, with the
-- camera's offset from UTC when there is one, and the GPS position, WGS84), read once when
-- it is attached, and the marks drawn over it (arrows, circles, words: a JSON list, in the
-- pixels of the upright photo), kept apart so that the photo's file and SHA-256 never
-- change. A photo may belong to one of the parcel's components and to one inspection
-- (attachments.component_id and inspection_id, there since the first schema).
ALTER TABLE attachments ADD COLUMN taken_at TEXT;
ALTER TABLE attachments ADD COLUMN taken_latitude REAL;
ALTER TABLE attachments ADD COLUMN taken_longitude REAL;
ALTER TABLE attachments ADD COLUMN annotations TEXT NOT NULL DEFAULT '[]';
