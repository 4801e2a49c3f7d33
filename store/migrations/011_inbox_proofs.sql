-- 011_inbox_proofs: no plain secret at rest in a failed inbox row either (issue 14 item 8).
-- A mail whose processing broke is kept (status 'failed') to be judged again once what
-- broke is mended, so it cannot simply lose its secret: each secret it carried is
-- replaced in the stored bytes by a marker ("(secret-1)" ...), and this table keeps, for
-- each marker, the keyed hash of what it replaced (the form players.secret_hash holds,
-- never the secret). Judging the row again checks a marker against the owner's hash by
-- these proofs (judge/failed.go). Rows go with their inbox row.
CREATE TABLE inbox_proofs (
    inbox_id  INTEGER NOT NULL REFERENCES inbox(id) ON DELETE CASCADE,
    marker    TEXT    NOT NULL,
    proof     TEXT    NOT NULL CHECK (proof LIKE '$2h$k1$%'),
    PRIMARY KEY (inbox_id, marker)
);
