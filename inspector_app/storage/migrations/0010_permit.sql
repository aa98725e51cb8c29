-- Schema version 10: the building permit the AHJ provides with its letter of
-- acknowledgement (§ 202-7 B(3)): its number and the date it was issued.
ALTER TABLE ahj_determinations ADD COLUMN permit_number TEXT;
ALTER TABLE ahj_determinations ADD COLUMN permit_issued_on TEXT;
