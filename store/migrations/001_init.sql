-- 001_init: rallyjudge's first schema.
--
-- Times are TEXT in UTC, fixed width ("2006-01-02T15:04:05.000000Z"), so that
-- they sort and compare as strings and are readable in the sqlite3 shell.
-- JSON columns hold the bytes the caller gave; the store never looks inside.

CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    tag             TEXT    NOT NULL UNIQUE COLLATE NOCASE,  -- the subject tag: [RR spring-open]
    name            TEXT    NOT NULL,
    course          TEXT    NOT NULL,                  -- a course name the adjudicator knows
    rules_json      TEXT    NOT NULL DEFAULT '{}',
    seed            INTEGER NOT NULL,
    deadline_kind   TEXT    NOT NULL CHECK (deadline_kind IN ('fixed', 'after_report')),
    deadline_hours  INTEGER NOT NULL DEFAULT 0,        -- after_report: N hours after the last report
    deadline_clock  TEXT    NOT NULL DEFAULT '',       -- fixed: "HH:MM" UTC, every day
    deadline_at     TEXT,                              -- the current turn's deadline, when set
    grace_seconds   INTEGER NOT NULL DEFAULT 0,
    missed_policy   TEXT    NOT NULL CHECK (missed_policy IN ('powerdown', 'random')),
    status          TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'running', 'paused', 'over')),
    current_turn    INTEGER NOT NULL DEFAULT 0,        -- the turn whose orders are being collected
    list_address    TEXT    NOT NULL DEFAULT '',
    created_at      TEXT    NOT NULL
);

CREATE TABLE players (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games(id),
    robot        TEXT    NOT NULL,
    seat         INTEGER NOT NULL,                     -- index into the adjudicator's State.Robots
    email        TEXT    NOT NULL,
    secret_hash  TEXT    NOT NULL CHECK (secret_hash LIKE '$2_$%'),  -- bcrypt only, never a plain secret
    missed       INTEGER NOT NULL DEFAULT 0,
    withdrawn    INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1)),
    created_at   TEXT    NOT NULL,
    UNIQUE (game_id, robot COLLATE NOCASE),
    UNIQUE (game_id, seat)
);
CREATE INDEX players_email ON players (email COLLATE NOCASE);

-- Game masters: game_id NULL is a server-wide game master.
CREATE TABLE gms (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER REFERENCES games(id),
    email        TEXT    NOT NULL,
    secret_hash  TEXT    NOT NULL CHECK (secret_hash LIKE '$2_$%'),
    created_at   TEXT    NOT NULL
);
CREATE UNIQUE INDEX gms_game_email ON gms (coalesce(game_id, 0), email COLLATE NOCASE);

-- Turn 0 is the set-up snapshot (state_before NULL). A voided turn stays for the
-- record; only one live (void = 0) row per (game, number) can exist, so a turn
-- cannot be resolved twice.
CREATE TABLE turns (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games(id),
    number        INTEGER NOT NULL CHECK (number >= 0),
    state_before  TEXT,
    state_after   TEXT    NOT NULL,
    events        TEXT    NOT NULL DEFAULT '[]',
    resolved_at   TEXT    NOT NULL,
    void          INTEGER NOT NULL DEFAULT 0 CHECK (void IN (0, 1)),
    voided_at     TEXT
);
CREATE UNIQUE INDEX turns_live ON turns (game_id, number) WHERE void = 0;

-- The raw mail, stored before anything else is done with it.
CREATE TABLE inbox (
    id           INTEGER PRIMARY KEY,
    uidvalidity  INTEGER NOT NULL,
    uid          INTEGER NOT NULL,
    message_id   TEXT    NOT NULL DEFAULT '',
    from_addr    TEXT    NOT NULL DEFAULT '',
    subject      TEXT    NOT NULL DEFAULT '',
    raw          BLOB    NOT NULL,
    size         INTEGER NOT NULL,                     -- the message's real size; raw may be cut short
    received_at  TEXT    NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'processed', 'rejected', 'failed')),
    note         TEXT    NOT NULL DEFAULT '',
    updated_at   TEXT    NOT NULL,
    UNIQUE (uidvalidity, uid)
);
CREATE INDEX inbox_message_id ON inbox (message_id) WHERE message_id <> '';
CREATE INDEX inbox_status ON inbox (status, id);

-- Where the IMAP reader got to, per mailbox.
CREATE TABLE mailbox_state (
    mailbox      TEXT    PRIMARY KEY,
    uidvalidity  INTEGER NOT NULL,
    last_uid     INTEGER NOT NULL,
    updated_at   TEXT    NOT NULL
);

-- Every version of every sheet; the latest valid one counts.
CREATE TABLE orders (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games(id),
    turn         INTEGER NOT NULL,
    robot        TEXT    NOT NULL,
    inbox_id     INTEGER REFERENCES inbox(id),
    raw          TEXT    NOT NULL,
    parsed       TEXT,
    valid        INTEGER NOT NULL CHECK (valid IN (0, 1)),
    errors       TEXT    NOT NULL DEFAULT '[]',
    received_at  TEXT    NOT NULL
);
CREATE INDEX orders_turn ON orders (game_id, turn, robot, valid, received_at, id);

CREATE TABLE outbox (
    id               INTEGER PRIMARY KEY,
    message_id       TEXT    NOT NULL UNIQUE,
    to_addrs         TEXT    NOT NULL,                 -- JSON array of addresses
    from_addr        TEXT    NOT NULL,
    subject          TEXT    NOT NULL DEFAULT '',
    raw              BLOB    NOT NULL,
    kind             TEXT    NOT NULL,
    game_id          INTEGER REFERENCES games(id),
    turn             INTEGER,
    status           TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TEXT    NOT NULL,
    last_error       TEXT    NOT NULL DEFAULT '',
    created_at       TEXT    NOT NULL,
    sent_at          TEXT
);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at, id);
CREATE INDEX outbox_game ON outbox (game_id, turn);

CREATE TABLE audit (
    id       INTEGER PRIMARY KEY,
    at       TEXT    NOT NULL,
    game_id  INTEGER REFERENCES games(id),
    actor    TEXT    NOT NULL,
    action   TEXT    NOT NULL,
    detail   TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX audit_game ON audit (game_id, id);

CREATE TABLE auth_failures (
    id       INTEGER PRIMARY KEY,
    address  TEXT    NOT NULL,
    at       TEXT    NOT NULL
);
CREATE INDEX auth_failures_address ON auth_failures (address, at);
