-- 010_secret_slots: no plain secret at rest in the outbox (issue 14 item 8). A mail that
-- carries a secret is stored with a placeholder where the secret goes (store.SlotText),
-- and secret_slots names whose secret each placeholder stands for ("P42 G7": player 42,
-- game master 7; J a pending JOIN's code, A an address change's code). The sender puts
-- the secret in at send time, in memory only (judge/secretslots.go); the stored row
-- never holds it. '' for mail that carries no secret.
ALTER TABLE outbox ADD COLUMN secret_slots TEXT NOT NULL DEFAULT '';
