-- 004_player_prefs: a player's preferences for the mail rallyjudge sends them.
--
-- pictures: 1 (the default) to show the board picture and the turn's animation inline in
-- the HTML part of turn reports, 0 for reports without pictures (the text board and the
-- HTML part stay). Set by the mail command SET PICTURES ON|OFF.
ALTER TABLE players ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1 CHECK (pictures IN (0, 1));
