-- Schema version 18.
--
-- A shoreline layer that lies far from the law's water body, or from every parcel located
-- in the data folder, becomes the measure of every lake distance only when a person
-- confirms it at its import. What they confirmed (how far the layer lies, from what) is
-- kept with the layer; who and when are the layer's imported_by and imported_at. NULL: the
-- layer was not far.
ALTER TABLE shoreline_layers ADD COLUMN far_confirmed TEXT;
