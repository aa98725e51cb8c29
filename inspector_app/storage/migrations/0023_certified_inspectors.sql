-- A laptop enrolled for a private certified inspector (Chapter 202, Article III: the
-- five-year inspections and reports of findings by an inspector certified through the NYS
-- Onsite Wastewater Treatment Training Network). At the office, the laptop's row keeps the
-- inspector's name and certification number as enrolled; on the laptop, its own row
-- (`this`) keeps them, and every change made there is recorded as that person. Both are
-- set once, at enrolment and at joining, and never changed.
ALTER TABLE devices ADD COLUMN inspector_name TEXT;
ALTER TABLE devices ADD COLUMN inspector_certification TEXT;
