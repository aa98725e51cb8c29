-- A septic tank's measurements beside its sludge and scum depths: the liquid depth (tank
-- bottom to liquid surface) the solids share is worked out of, the clearances from the
-- bottom of the scum and from the top of the sludge to the bottom of the outlet tee, and
-- whether the effluent filter was cleaned. `liquid_level` (a level against the outlet) is
-- kept as it is. Each is declared in domain/fields.py, with its bounds.
ALTER TABLE components ADD COLUMN liquid_depth_in REAL;
ALTER TABLE components ADD COLUMN scum_clearance_in REAL;
ALTER TABLE components ADD COLUMN sludge_clearance_in REAL;
ALTER TABLE components ADD COLUMN effluent_filter_cleaned INTEGER;
