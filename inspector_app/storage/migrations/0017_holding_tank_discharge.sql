-- Schema version 17.
--
-- § 202-8 B: "At no time will sewage discharge from the tank to the surface, ground, or
-- surface water be allowed." The site observations record where sewage was seen
-- discharging from a holding tank (a JSON list of text, like the other observations; empty
-- where none was seen).
ALTER TABLE site_observations ADD COLUMN holding_tank_discharges TEXT NOT NULL DEFAULT '[]';

-- A notice of violation for a discharging holding tank asks that it be pumped at once and
-- that the pump-out record reach the office by a date (moved off a weekend or public
-- holiday): kept with the issued letter like its other dates, and followed up by them.
ALTER TABLE letters ADD COLUMN pump_out_by TEXT;

-- Like the rest of an issued letter, it never changes.
CREATE TRIGGER letters_issued_pump_out_by_immutable BEFORE UPDATE ON letters
WHEN OLD.status = 'issued' AND NEW.pump_out_by IS NOT OLD.pump_out_by
BEGIN
    SELECT RAISE(ABORT, 'an issued letter cannot be changed; issue a correction instead');
END;
