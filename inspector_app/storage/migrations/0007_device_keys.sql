-- Schema version 7: per-device Ed25519 key pairs replace the shared signing keys.
-- This device keeps its private key; every other device is known by its public key.
ALTER TABLE devices ADD COLUMN private_key TEXT;
ALTER TABLE devices ADD COLUMN public_key TEXT;
-- The shared keys of the earlier scheme are no longer used or kept: a laptop enrolled
-- with one is enrolled again (docs/security.md).
UPDATE devices SET secret = NULL;
