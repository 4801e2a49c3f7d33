-- 005_people: what players and game masters of play-by-mail games rely on (issue 13).
--
-- players.timezone: an IANA zone name ("Europe/Berlin") the player's deadlines are shown
-- in beside UTC; '' for UTC only. Set by SET TIMEZONE.
-- players.wait_turn: the turn a player asked not to be resolved early (WAIT); the turn
-- then waits for its deadline. 0: no wait. It lapses by itself when the turn moves on.
-- players.absent_from, absent_until: an announced absence, dates "YYYY-MM-DD" (UTC,
-- both days included); '' for none.
ALTER TABLE players ADD COLUMN timezone TEXT NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN wait_turn INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN absent_from TEXT NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN absent_until TEXT NOT NULL DEFAULT '';

-- Observers get a game's public report (OBSERVE / UNOBSERVE).
CREATE TABLE observers (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id),
    email       TEXT    NOT NULL,
    created_at  TEXT    NOT NULL
);
CREATE UNIQUE INDEX observers_game_email ON observers (game_id, email COLLATE NOCASE);

-- Standby players offer to take over a robot whose player left (STANDBY).
CREATE TABLE standbys (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id),
    email       TEXT    NOT NULL,
    created_at  TEXT    NOT NULL
);
CREATE UNIQUE INDEX standbys_game_email ON standbys (game_id, email COLLATE NOCASE);

-- Press: messages between players, relayed by the judge (PRESS). to_robots is the
-- robots written to, comma-separated, or '*' for everyone; signed 0 is anonymous (the
-- sender's robot is kept here, for the game master and the archive, never shown to the
-- receivers).
CREATE TABLE press (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id),
    turn        INTEGER NOT NULL,
    from_robot  TEXT    NOT NULL,
    to_robots   TEXT    NOT NULL,
    signed      INTEGER NOT NULL CHECK (signed IN (0, 1)),
    body        TEXT    NOT NULL,
    sent_at     TEXT    NOT NULL
);
CREATE INDEX press_game ON press (game_id, id);

-- A player's change of address waiting for the new address to confirm it (the request
-- came from the old address with the secret). code_hash is a bcrypt hash of the code
-- mailed to the new address.
CREATE TABLE address_changes (
    id          INTEGER PRIMARY KEY,
    player_id   INTEGER NOT NULL REFERENCES players(id),
    new_email   TEXT    NOT NULL,
    code_hash   TEXT    NOT NULL CHECK (code_hash LIKE '$2_$%'),
    created_at  TEXT    NOT NULL,
    done_at     TEXT
);
