-- Schema version 14.
--
-- The dates an issued letter sets, kept with it as it was served: a notice of violation's
-- permit and completion deadlines and the date a letter asks a reply by (each already moved
-- off a weekend or public holiday). Follow-up reads them, not the deadlines typed into the
-- case for the next notice. A letter issued before this version has none of them kept
-- (NULL): its dates are read from the records it was made from (docs/letters.md).
ALTER TABLE letters ADD COLUMN permit_by TEXT;
ALTER TABLE letters ADD COLUMN complete_by TEXT;
ALTER TABLE letters ADD COLUMN reply_by TEXT;

-- Like the rest of an issued letter, its dates never change.
CREATE TRIGGER letters_issued_dates_immutable BEFORE UPDATE ON letters
WHEN OLD.status = 'issued' AND (
    NEW.permit_by IS NOT OLD.permit_by OR NEW.complete_by IS NOT OLD.complete_by
    OR NEW.reply_by IS NOT OLD.reply_by)
BEGIN
    SELECT RAISE(ABORT, 'an issued letter cannot be changed; issue a correction instead');
END;
