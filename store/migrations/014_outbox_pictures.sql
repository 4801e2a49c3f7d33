-- 014_outbox_pictures: a turn's reports are committed with the turn, and their pictures
-- are drawn after the commit (issue 24 item 3). A report whose pictures are not drawn
-- yet has a row here beside its outbox row: the sender passes it by (DuePending), and
-- the judge's picture worker draws them, puts the finished mail in the outbox row and
-- deletes this row in one transaction. job is what the worker needs, written by the
-- judge (judge/reportpictures.go); the store does not read it.
CREATE TABLE outbox_pictures (
    outbox_id BIGINT PRIMARY KEY REFERENCES outbox(id) ON DELETE CASCADE,
    job       TEXT   NOT NULL
);
