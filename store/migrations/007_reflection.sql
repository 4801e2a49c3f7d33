-- 007_reflection: indexes for the judge's reply limits (judge/reflection.go): how many
-- replies went to one address lately, and how much mail came from it.
CREATE INDEX outbox_kind_created ON outbox (kind, created_at);
CREATE INDEX inbox_from_received ON inbox (from_addr COLLATE NOCASE, received_at);
