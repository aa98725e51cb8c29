-- Schema version 11: each parcel's evaluation summary as of any date, for the work lists.
-- Derived data, never a record: not in the change log, never synced. A summary names the
-- rules, the law and the shoreline layer it was worked out under; a write to any row a
-- case is read from deletes the parcel's summary in the same transaction, so a summary on
-- file always describes the case as stored.
CREATE TABLE case_summaries (
    parcel_id TEXT PRIMARY KEY,
    rules_key TEXT NOT NULL,
    law_key TEXT NOT NULL,
    layer_key TEXT NOT NULL,
    summary TEXT NOT NULL
);
CREATE TRIGGER case_summaries_stale_parcels_insert AFTER INSERT ON parcels
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.id;
END;
CREATE TRIGGER case_summaries_stale_parcels_update AFTER UPDATE ON parcels
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.id, NEW.id);
END;
CREATE TRIGGER case_summaries_stale_parcels_delete AFTER DELETE ON parcels
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.id;
END;
CREATE TRIGGER case_summaries_stale_renters_insert AFTER INSERT ON renters
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_renters_update AFTER UPDATE ON renters
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.parcel_id, NEW.parcel_id);
END;
CREATE TRIGGER case_summaries_stale_renters_delete AFTER DELETE ON renters
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_dwellings_insert AFTER INSERT ON dwellings
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_dwellings_update AFTER UPDATE ON dwellings
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.parcel_id, NEW.parcel_id);
END;
CREATE TRIGGER case_summaries_stale_dwellings_delete AFTER DELETE ON dwellings
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_proposed_work_insert AFTER INSERT ON proposed_work
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_proposed_work_update AFTER UPDATE ON proposed_work
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.parcel_id, NEW.parcel_id);
END;
CREATE TRIGGER case_summaries_stale_proposed_work_delete AFTER DELETE ON proposed_work
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_etu_services_insert AFTER INSERT ON etu_services
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_etu_services_update AFTER UPDATE ON etu_services
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.parcel_id, NEW.parcel_id);
END;
CREATE TRIGGER case_summaries_stale_etu_services_delete AFTER DELETE ON etu_services
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_etu_reports_insert AFTER INSERT ON etu_reports
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_etu_reports_update AFTER UPDATE ON etu_reports
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.parcel_id, NEW.parcel_id);
END;
CREATE TRIGGER case_summaries_stale_etu_reports_delete AFTER DELETE ON etu_reports
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_holding_tank_services_insert AFTER INSERT ON holding_tank_services
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_holding_tank_services_update AFTER UPDATE ON holding_tank_services
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.parcel_id, NEW.parcel_id);
END;
CREATE TRIGGER case_summaries_stale_holding_tank_services_delete AFTER DELETE ON holding_tank_services
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_pump_outs_insert AFTER INSERT ON pump_outs
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_pump_outs_update AFTER UPDATE ON pump_outs
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.parcel_id, NEW.parcel_id);
END;
CREATE TRIGGER case_summaries_stale_pump_outs_delete AFTER DELETE ON pump_outs
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_site_observations_insert AFTER INSERT ON site_observations
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_site_observations_update AFTER UPDATE ON site_observations
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.parcel_id, NEW.parcel_id);
END;
CREATE TRIGGER case_summaries_stale_site_observations_delete AFTER DELETE ON site_observations
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_ahj_determinations_insert AFTER INSERT ON ahj_determinations
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_ahj_determinations_update AFTER UPDATE ON ahj_determinations
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.parcel_id, NEW.parcel_id);
END;
CREATE TRIGGER case_summaries_stale_ahj_determinations_delete AFTER DELETE ON ahj_determinations
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_notices_insert AFTER INSERT ON notices
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_notices_update AFTER UPDATE ON notices
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.parcel_id, NEW.parcel_id);
END;
CREATE TRIGGER case_summaries_stale_notices_delete AFTER DELETE ON notices
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_systems_insert AFTER INSERT ON systems
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_systems_update AFTER UPDATE ON systems
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.parcel_id, NEW.parcel_id);
END;
CREATE TRIGGER case_summaries_stale_systems_delete AFTER DELETE ON systems
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_components_insert AFTER INSERT ON components
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_components_update AFTER UPDATE ON components
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.parcel_id, NEW.parcel_id);
END;
CREATE TRIGGER case_summaries_stale_components_delete AFTER DELETE ON components
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_site_features_insert AFTER INSERT ON site_features
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_site_features_update AFTER UPDATE ON site_features
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.parcel_id, NEW.parcel_id);
END;
CREATE TRIGGER case_summaries_stale_site_features_delete AFTER DELETE ON site_features
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_lake_measurements_insert AFTER INSERT ON lake_measurements
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_lake_measurements_update AFTER UPDATE ON lake_measurements
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.parcel_id, NEW.parcel_id);
END;
CREATE TRIGGER case_summaries_stale_lake_measurements_delete AFTER DELETE ON lake_measurements
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_inspections_insert AFTER INSERT ON inspections
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_inspections_update AFTER UPDATE ON inspections
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.parcel_id, NEW.parcel_id);
END;
CREATE TRIGGER case_summaries_stale_inspections_delete AFTER DELETE ON inspections
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_inspection_tests_insert AFTER INSERT ON inspection_tests
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = NEW.parcel_id;
END;
CREATE TRIGGER case_summaries_stale_inspection_tests_update AFTER UPDATE ON inspection_tests
BEGIN
    DELETE FROM case_summaries WHERE parcel_id IN (OLD.parcel_id, NEW.parcel_id);
END;
CREATE TRIGGER case_summaries_stale_inspection_tests_delete AFTER DELETE ON inspection_tests
BEGIN
    DELETE FROM case_summaries WHERE parcel_id = OLD.parcel_id;
END;
