-- Schema version 19.
--
-- The settings files of an office (its jurisdiction files, letterhead, the letters' wording
-- and the images they name), by their path in the data folder. An office database keeps
-- them for every desk, which works from copies of them in its own folder; a data folder
-- keeps them as its own files and leaves this table empty.
CREATE TABLE office_files (
    path TEXT PRIMARY KEY,
    content BLOB NOT NULL,
    sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
    stored_at TEXT NOT NULL,
    stored_by TEXT NOT NULL
);
