package judge

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/store"
)

// TestFailedMailKeepsNoSecret: a mail whose processing broke is kept as failed with its
// secret replaced by a marker and a proof (no plain secret at rest, issue 14 item 8), and
// Recover still judges it once what broke is mended: the marker authenticates by its
// proof. Shapes: the secret as plain text, and only in a base64 body (it cannot be
// replaced in the bytes; the text read is kept instead).
func TestFailedMailKeepsNoSecret(t *testing.T) {
	for _, shape := range []string{"plain", "base64"} {
		t.Run(shape, func(t *testing.T) {
			f := newFixture(t)
			secret := f.secrets["Twonky"]
			raw := rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", ""))
			if shape == "base64" {
				body := base64.StdEncoding.EncodeToString([]byte(strings.ReplaceAll(f.sheet("Twonky", ""), "\n", "\r\n")))
				raw = []byte("From: twonky@example.test\r\nTo: judge@example.test\r\nSubject: [RR spring] orders\r\n" +
					"Message-ID: <b64@client.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n" +
					"Content-Transfer-Encoding: base64\r\n\r\n" + body + "\r\n")
				if bytes.Contains(raw, []byte(secret)) {
					t.Fatal("the base64 mail carries the secret in clear")
				}
			}
			load := adjudicator.LoadCourse
			f.setCourses(func(string) (*adjudicator.Course, error) { return nil, errors.New("disk on fire") })
			f.deliver(raw)
			row := f.inboxStatus(f.uid)
			if row.Status != store.InboxFailed {
				t.Fatalf("status %s (%s), want failed:\n%s", row.Status, row.Note, raw)
			}
			if how := keptSecret(row.Raw, secret); how != "" {
				t.Fatalf("the failed row keeps the secret (%s):\n%s", how, row.Raw)
			}
			if !bytes.Contains(row.Raw, []byte("(secret-1)")) || !strings.Contains(row.Note, "disk on fire") {
				t.Fatalf("the failed row lost what a retry and a diagnosis need (note %q):\n%s", row.Note, row.Raw)
			}
			var proofs map[string]string
			_ = f.j.Store.View(context.Background(), func(tx *store.Tx) error {
				var err error
				proofs, err = tx.InboxProofs(row.ID)
				return err
			})
			if len(proofs) != 1 || strings.Contains(proofs["(secret-1)"], secret) {
				t.Fatalf("proofs %v", proofs)
			}
			f.setCourses(load)
			if err := f.j.Recover(context.Background()); err != nil {
				t.Fatal(err)
			}
			row = f.inboxStatus(f.uid)
			if row.Status != store.InboxProcessed {
				t.Fatalf("after Recover: %s (%s)", row.Status, row.Note)
			}
			if acks := f.mailsTo("twonky@example.test", "ack"); len(acks) != 1 {
				t.Fatalf("%d acks", len(acks))
			}
			if bytes.Contains(row.Raw, []byte(secret)) || bytes.Contains(row.Raw, []byte("(secret-1)")) {
				t.Fatalf("the processed row:\n%s", row.Raw)
			}
			_ = f.j.Store.View(context.Background(), func(tx *store.Tx) error {
				var err error
				proofs, err = tx.InboxProofs(row.ID)
				return err
			})
			if len(proofs) != 0 {
				t.Fatalf("proofs kept after the mail was judged: %v", proofs)
			}
		})
	}
}

// TestFailedMailMarkerWrittenByASenderProvesNothing: a mail that writes a marker as its
// secret is refused like any wrong secret (a proof comes only from the judge).
func TestFailedMailMarkerWrittenByASenderProvesNothing(t *testing.T) {
	f := newFixture(t)
	sheet := strings.Replace(f.sheet("Twonky", ""), f.secrets["Twonky"], "(secret-1)", 1)
	f.deliver(rawMail("twonky@example.test", "[RR spring] orders", sheet))
	if row := f.inboxStatus(f.uid); row.Status != store.InboxRejected || !strings.Contains(row.Note, "wrong secret") {
		t.Fatalf("status %s (%s), want rejected for a wrong secret", row.Status, row.Note)
	}
}

func TestProofMatches(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 32)
	a, b := "abcd-efgh-jkmn-pqrs", "k7dm-3xqp-9wtr-hzv4"
	h := store.KeyedHash(key, a)
	two := store.KeyedHashKeeping(key, b, h)
	for _, c := range []struct {
		h, secret string
		want      bool
	}{{h, a, true}, {h, b, false}, {two, a, true}, {two, b, true}, {"$2a$10$" + strings.Repeat("x", 53), a, false}} {
		if got := store.ProofMatches(c.h, store.KeyedHash(key, c.secret)); got != c.want {
			t.Errorf("ProofMatches(%.12s…, proof of %s) = %v", c.h, c.secret, got)
		}
	}
	if store.ProofMatches(h, h+"x") || store.ProofMatches(h, "") {
		t.Error("a malformed proof matched")
	}
}
