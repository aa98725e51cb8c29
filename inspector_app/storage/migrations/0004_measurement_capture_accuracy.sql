-- Schema version 4: a map distance also keeps how accurately the measured area was captured.
ALTER TABLE lake_measurements ADD COLUMN capture_accuracy_ft REAL;
