-- 006_liveness: what the judge needs to finish half-done steps after a crash and to
-- check secrets cheaply.
--
-- outbox.inflight counts attempts handed to SMTP whose outcome was never recorded (the
-- process died mid-send). It is raised, and committed, before each attempt and lowered
-- when the outcome is known; a mail found with inflight > 0 may already have been
-- delivered. The sender allows one such uncertain attempt: after two it records the
-- mail as sent instead of a third try, so a mail goes out at most twice.
ALTER TABLE outbox ADD COLUMN inflight INTEGER NOT NULL DEFAULT 0;

-- server_keys holds the key of the keyed hash (HMAC-SHA-256) that secrets are stored
-- under; made at random the first time the database is opened by a build that knows it.
CREATE TABLE server_keys (
    name  TEXT PRIMARY KEY,
    key   BLOB NOT NULL
);
