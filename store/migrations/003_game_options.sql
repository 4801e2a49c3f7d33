-- 003_game_options: what the mail commands and the turn lifecycle need.
--
-- options_json: a game's options beyond the columns of 001 (player limit, missed-turns
-- limit and what happens then, reminder lead times, the "autopilot" missed-orders policy,
-- a paused game's remaining time). The judge reads and writes it; the store never looks
-- inside.
-- void_at: an outgoing mail that no longer stands (its turn was rolled back). A pending
-- void mail is never sent; a sent one is not re-sent on request.
ALTER TABLE games ADD COLUMN options_json TEXT NOT NULL DEFAULT '{}';
ALTER TABLE outbox ADD COLUMN void_at TEXT;
