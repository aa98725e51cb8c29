-- Schema version 8: every key each device has had, and revoked laptops.
-- `devices.public_key` (and, for this device, `devices.private_key`) stay the current
-- key; the triggers below keep `device_keys` in step with it, so the two cannot differ.
-- Only public keys are kept here: a private key exists only as this device's current one.
CREATE TABLE device_keys (
    device_id TEXT NOT NULL,
    public_key TEXT NOT NULL CHECK (length(public_key) = 64),
    created_at TEXT NOT NULL,
    retired_at TEXT,
    -- the key this one replaced, and its signature over the endorsement of this one
    endorsed_by TEXT,
    endorsed_at TEXT,
    endorsement TEXT,
    PRIMARY KEY (device_id, public_key)
);
CREATE UNIQUE INDEX device_keys_current ON device_keys(device_id) WHERE retired_at IS NULL;
INSERT INTO device_keys (device_id, public_key, created_at)
    SELECT id, public_key, created_at FROM devices WHERE public_key IS NOT NULL;

CREATE TRIGGER device_keys_added AFTER INSERT ON devices WHEN NEW.public_key IS NOT NULL
BEGIN
    INSERT INTO device_keys (device_id, public_key, created_at)
        VALUES (NEW.id, NEW.public_key, strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'));
END;

CREATE TRIGGER device_keys_changed AFTER UPDATE OF public_key ON devices
    WHEN NEW.public_key IS NOT OLD.public_key
BEGIN
    UPDATE device_keys SET retired_at = strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
        WHERE device_id = OLD.id AND retired_at IS NULL;
    INSERT INTO device_keys (device_id, public_key, created_at)
        SELECT NEW.id, NEW.public_key, strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
        WHERE NEW.public_key IS NOT NULL;
END;

-- A revoked laptop: when, by whom and why. Its packages are refused from then on.
ALTER TABLE devices ADD COLUMN revoked_at TEXT;
ALTER TABLE devices ADD COLUMN revoked_by TEXT;
ALTER TABLE devices ADD COLUMN revoked_reason TEXT;
