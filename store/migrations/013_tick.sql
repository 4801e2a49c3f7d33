-- 013_tick: what the judge's tick reads costs what there is to do, not the number of
-- games (issue 24 item 2).
--
-- games_due: the running games whose deadline has come, found through an index
-- (GamesDue), not by reading every running game.
CREATE INDEX games_due ON games (status, deadline_at) WHERE deadline_at IS NOT NULL;

-- game_changes: a feed of the games whose row was inserted or changed (deadline,
-- status, turn, options, anything), in order, written by the triggers below whoever
-- writes (the judge, the CLI in another process). The tick reads the feed past the
-- last change it has seen (GameChanges) and keeps what it knows of every other game.
-- Rows older than a day are pruned (Prune); a reader that finds its place pruned reads
-- every game again.
CREATE TABLE game_changes (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused, though old rows go
    game_id INTEGER NOT NULL,
    at      TEXT    NOT NULL
);
CREATE TRIGGER game_changes_insert AFTER INSERT ON games
BEGIN
    INSERT INTO game_changes (game_id, at) VALUES (NEW.id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
CREATE TRIGGER game_changes_update AFTER UPDATE ON games
BEGIN
    INSERT INTO game_changes (game_id, at) VALUES (NEW.id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
