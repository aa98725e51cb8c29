-- Schema version 5: the AHJ's greatest-extent-possible determination in full: who decided,
-- when, any local waiver, and the findings on each § 202-7 B(1) factor.
ALTER TABLE ahj_determinations ADD COLUMN waiver_granted INTEGER;
ALTER TABLE ahj_determinations ADD COLUMN waiver_description TEXT;
ALTER TABLE ahj_determinations ADD COLUMN factors_weighed TEXT NOT NULL DEFAULT '[]';
ALTER TABLE ahj_determinations ADD COLUMN determined_by TEXT;
ALTER TABLE ahj_determinations ADD COLUMN determined_on TEXT;
