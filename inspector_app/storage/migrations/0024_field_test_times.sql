-- A field test's start and end as the clock at the site showed them ("2026-11-18T09:30"),
-- and what was seen of it at the test and at later visits (a JSON list of observations:
-- when, dye seen or not, the place on the map, a note).
ALTER TABLE inspection_tests ADD COLUMN started_at TEXT;
ALTER TABLE inspection_tests ADD COLUMN ended_at TEXT;
ALTER TABLE inspection_tests ADD COLUMN observations TEXT NOT NULL DEFAULT '[]';
