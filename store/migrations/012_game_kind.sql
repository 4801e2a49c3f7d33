-- 012_game_kind: the game a row plays, by the name its package gives it behind the game
-- seam (package game): '' for the games stored before the judge hosted more than one,
-- which are RoboRally. For a game behind the seam rules_json holds its settings as the
-- game encoded them.
ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT '';
