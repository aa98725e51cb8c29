-- 10 NYCRR Appendix 75-A, Table 2 applied in full. A well's conditions that change its
-- separations, yes (1), no (0) or not known (NULL): aquifer water enters it less than
-- 50 ft below grade (note (g)), and the system is upgrade and in the general path of
-- drainage to it (note (a)). And the component details that choose a component's row: a
-- cast-iron house sewer, a watertight sand filter or privy vault.
ALTER TABLE site_features ADD COLUMN shallow_aquifer INTEGER;
ALTER TABLE site_features ADD COLUMN drainage_path INTEGER;
ALTER TABLE components ADD COLUMN cast_iron INTEGER;
ALTER TABLE components ADD COLUMN watertight INTEGER;
