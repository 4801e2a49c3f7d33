-- 008_pending_joins: a JOIN waiting for its CONFIRM (issue 14 item 6). Anyone can forge a
-- From address, so JOIN takes no seat: it stores this row and mails a code to the joining
-- address; the seat is taken when a mail from that address carries the code (CONFIRM
-- CODE). code_hash is the code hashed as secrets are (never the code itself); a row
-- older than the judge's joinTTL counts for nothing; done_at marks a confirmed one.
CREATE TABLE pending_joins (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id),
    email       TEXT    NOT NULL,
    robot       TEXT    NOT NULL,
    code_hash   TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    done_at     TEXT
);
CREATE INDEX pending_joins_email ON pending_joins (email COLLATE NOCASE, created_at);
