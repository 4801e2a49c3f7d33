package store

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

func TestNewSecret(t *testing.T) {
	shape := regexp.MustCompile(`^[` + secretAlphabet + `]{4}(-[` + secretAlphabet + `]{4}){3}$`)
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		s, err := NewSecret()
		if err != nil {
			t.Fatal(err)
		}
		if !shape.MatchString(s) {
			t.Fatalf("secret %q is not four groups of four readable letters", s)
		}
		if seen[s] {
			t.Fatalf("secret %q came twice", s)
		}
		seen[s] = true
	}
}

func TestHashAndCheckSecret(t *testing.T) {
	s, err := NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	h, err := HashSecret(s)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(h, s) || !looksLikeBcrypt(h) {
		t.Fatalf("hash %q", h)
	}
	tests := []struct {
		hash, secret string
		want         bool
	}{
		{h, s, true},
		{h, strings.ToUpper(s), false},
		{h, s + " ", false},
		{h, "", false},
		{"", s, false},
		{s, s, false}, // a plain "hash" never matches
		{dummyHash, "", false},
	}
	for _, tt := range tests {
		if got := CheckSecret(tt.hash, tt.secret); got != tt.want {
			t.Errorf("CheckSecret(%.10q…, %q) = %v, want %v", tt.hash, tt.secret, got, tt.want)
		}
	}
	if _, err := HashSecret(""); err == nil {
		t.Error("an empty secret was hashed")
	}
	if _, err := HashSecret(strings.Repeat("x", 100)); err == nil {
		t.Error("a secret longer than bcrypt's 72 bytes was hashed (bcrypt would ignore the rest)")
	}
	if _, err := bcrypt.Cost([]byte(dummyHash)); err != nil {
		t.Errorf("dummyHash is not a bcrypt hash: %v", err)
	}
}

// TestSecretNeverStoredPlain: the database file (and its WAL) holds the hash,
// never the secret, and the schema refuses a plain secret.
func TestSecretNeverStoredPlain(t *testing.T) { bothBackends(t, testSecretNeverStoredPlain) }

func testSecretNeverStoredPlain(t *testing.T) {
	path := testDB(t)
	st := openTestWith(t, path, Options{})
	secret, _ := NewSecret()
	gmSecret, _ := NewSecret()
	hash, err := HashSecret(secret)
	if err != nil {
		t.Fatal(err)
	}
	gmHash, err := HashSecret(gmSecret)
	if err != nil {
		t.Fatal(err)
	}
	var pid int64
	mustTx(t, st, func(tx *Tx) error {
		g, err := tx.CreateGame(testGame("spring-open"))
		if err != nil {
			return err
		}
		if pid, err = tx.AddPlayer(Player{GameID: g, Robot: "Twonky", Email: "t@example.org", SecretHash: hash, Created: t0}); err != nil {
			return err
		}
		_, err = tx.AddGM(GM{GameID: g, Email: "gm@example.org", SecretHash: gmHash, Created: t0})
		return err
	})
	mustView(t, st, func(tx *Tx) error {
		ps, err := tx.Players(1)
		if err != nil {
			return err
		}
		if !CheckSecret(ps[0].SecretHash, secret) {
			t.Error("the stored hash does not check")
		}
		return nil
	})
	// Straight past the Go check: the schema's CHECK refuses it too.
	q := `UPDATE players SET secret_hash = ? WHERE id = ?`
	if onPostgres(t) {
		q = rebind(q)
	}
	if _, err := st.writer.Exec(q, secret, pid); err == nil {
		t.Error("the schema accepted a plain secret")
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if onPostgres(t) { // the server's files are not ours to read; the CHECK above is the test
		return
	}
	for _, f := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(secret)) || bytes.Contains(b, []byte(gmSecret)) {
			t.Errorf("%s contains a plain secret", filepath.Base(f))
		}
		if f == path && !bytes.Contains(b, []byte(hash)) {
			t.Errorf("%s does not contain the hash (is the test looking at the right file?)", filepath.Base(f))
		}
	}
}
