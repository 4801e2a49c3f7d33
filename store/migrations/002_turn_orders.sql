-- The orders the engine played in each turn, exactly as given to it (program, standing and
-- conditional orders, missed-orders policy applied): with state_before they reproduce
-- state_after, so an archive can be replayed bit for bit.
ALTER TABLE turns ADD COLUMN orders TEXT NOT NULL DEFAULT '[]';
