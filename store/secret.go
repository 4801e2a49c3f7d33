package store

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"golang.org/x/crypto/bcrypt"
)

// secretAlphabet has no look-alikes (no 0/o, 1/l/i), so a secret read off a
// screen or a printout is typed right.
const secretAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

// secretGroups × secretGroupLen characters of a 31-letter alphabet: about 79
// bits, written as four groups: "k7dm-3xqp-9wtr-hzv4".
const (
	secretGroups   = 4
	secretGroupLen = 4
)

// NewSecret makes a readable random secret from crypto/rand.
func NewSecret() (string, error) {
	n := secretGroups * secretGroupLen
	var b strings.Builder
	buf := make([]byte, 1)
	for i := 0; i < n; {
		if _, err := rand.Read(buf); err != nil {
			return "", fmt.Errorf("store: new secret: %w", err)
		}
		// Rejection sampling keeps every letter equally likely.
		if int(buf[0]) >= 256-256%len(secretAlphabet) {
			continue
		}
		if i > 0 && i%secretGroupLen == 0 {
			b.WriteByte('-')
		}
		b.WriteByte(secretAlphabet[int(buf[0])%len(secretAlphabet)])
		i++
	}
	return b.String(), nil
}

// HashSecret hashes a secret with bcrypt. Secrets are stored keyed (Store.HashSecret);
// bcrypt hashes from before are still read, and tests make them to check that.
func HashSecret(s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf("store: hash secret: empty secret")
	}
	h, err := bcrypt.GenerateFromPassword([]byte(s), bcrypt.DefaultCost)
	if err != nil {
		// bcrypt's errors never include the secret.
		return "", fmt.Errorf("store: hash secret: %w", err)
	}
	return string(h), nil
}

// dummyHash is a bcrypt hash of nothing anyone knows, compared against when
// there is no stored hash, so that "no such player" takes as long as "wrong
// secret" and timing tells an attacker nothing.
const dummyHash = "$2a$10$S0O7JGnJ2fc28hHDBQ8XcOoaryXAsRoqrZwa2O847c3eNov/q3AK6"

// CheckSecret reports whether s is the secret hash was made from. It always
// does the work of one bcrypt comparison, also when hash is empty.
func CheckSecret(hash, s string) bool {
	if hash == "" || !looksLikeBcrypt(hash) {
		bcrypt.CompareHashAndPassword([]byte(dummyHash), []byte(s)) //nolint:errcheck // only for the time it takes
		return false
	}
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(s)) == nil
}

func looksLikeBcrypt(h string) bool {
	return len(h) == 60 && strings.HasPrefix(h, "$2") && h[3] == '$'
}

// Keyed hashes. bcrypt's cost (~70 ms a check) exists for passwords people choose; the
// judge's secrets are 79 random bits (NewSecret), which no amount of hashing speed makes
// guessable, and a slow hash only lets a flood of wrong secrets eat the time the judge
// needs for everyone else (issue 14). So secrets are stored as HMAC-SHA-256 under a
// random 32-byte server key kept in the database (server_keys): a copy of the database
// without the key would be no help either, but even with it, 2^79 guesses stay hopeless.
//
// The stored form is "$2h$k1$" and the unpadded base64url of the MAC: it keeps the
// schema's check that a secret column holds a "$2?$" hash (never a plain secret), and it
// is not a bcrypt version (2a, 2b, 2x, 2y), so the two are never confused. Old bcrypt
// hashes keep working; each is replaced by its keyed hash the first time the right
// secret is shown (see judge's secretCache).
const hmacPrefix = "$2h$k1$"

// KeyedHash is the stored form of secret s under key.
func KeyedHash(key []byte, s string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(s))
	return hmacPrefix + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// IsKeyedHash reports whether h is a keyed hash (not a bcrypt one): of one secret, or
// of two (KeyedHashKeeping).
func IsKeyedHash(h string) bool {
	return strings.HasPrefix(h, hmacPrefix) && len(h) == len(hmacPrefix)+43 ||
		strings.HasPrefix(h, hmacPrefix2) && len(h) == len(hmacPrefix2)+43+1+43 && h[len(hmacPrefix2)+43] == '$'
}

// CheckKeyed reports whether s is the secret of h, for h a keyed hash, in constant time.
func CheckKeyed(key []byte, h, s string) bool {
	return MatchesKeyed(h, KeyedHash(key, s))
}

// MatchesKeyed is CheckKeyed with keyed, KeyedHash(key, s), worked out before: the judge
// works it out beside its writer.
func MatchesKeyed(h, keyed string) bool {
	if !strings.HasPrefix(keyed, hmacPrefix) {
		return false
	}
	mac := keyed[len(hmacPrefix):]
	switch {
	case !IsKeyedHash(h):
		return false
	case strings.HasPrefix(h, hmacPrefix2):
		a, b := h[len(hmacPrefix2):len(hmacPrefix2)+43], h[len(hmacPrefix2)+44:]
		okA, okB := hmac.Equal([]byte(mac), []byte(a)), hmac.Equal([]byte(mac), []byte(b))
		return okA || okB
	}
	return hmac.Equal([]byte(mac), []byte(h[len(hmacPrefix):]))
}

// hmacPrefix2 marks a keyed hash that two secrets pass: the newest, and the one before.
const hmacPrefix2 = "$2h$k2$"

// KeyedHashKeeping is the stored form of secret s that lets the secret of prev (a keyed
// hash) pass as well. The sender uses it when it mints a fresh secret for a mail whose
// earlier attempt was cut off mid-send and may have arrived (judge/secretslots.go): the
// player may see either copy (clients fold the two by their Message-ID), and either
// secret works. Only the newest of prev's secrets is kept, so never more than two pass.
func KeyedHashKeeping(key []byte, s, prev string) string {
	h := KeyedHash(key, s)
	var keep string
	switch {
	case strings.HasPrefix(prev, hmacPrefix2) && IsKeyedHash(prev):
		keep = prev[len(hmacPrefix2) : len(hmacPrefix2)+43]
	case strings.HasPrefix(prev, hmacPrefix) && IsKeyedHash(prev):
		keep = prev[len(hmacPrefix):]
	default:
		return h
	}
	return hmacPrefix2 + h[len(hmacPrefix):] + "$" + keep
}

// SecretShaped reports whether s is written as NewSecret writes secrets: anything else
// cannot be a secret of this judge, and is refused without hashing anything.
func SecretShaped(s string) bool {
	return len(s) == secretGroups*secretGroupLen+secretGroups-1 && secretShape.MatchString(s)
}

// CheckSecret reports whether plain is the secret of hash, a keyed or a bcrypt hash.
func (s *Store) CheckSecret(hash, plain string) bool {
	if IsKeyedHash(hash) {
		return CheckKeyed(s.key, hash, plain)
	}
	return CheckSecret(hash, plain)
}

// SecretKey is the server key of the keyed secret hashes.
func (s *Store) SecretKey() []byte { return s.key }

// HashSecret is s's keyed hash, the form secrets are stored in.
func (s *Store) HashSecret(plain string) (string, error) {
	if plain == "" {
		return "", fmt.Errorf("store: hash secret: empty secret")
	}
	return KeyedHash(s.key, plain), nil
}

// loadKey reads the server key, making it on first use.
func loadKey(ctx context.Context, db *sql.DB, pg bool) ([]byte, error) {
	var key []byte
	err := db.QueryRowContext(ctx, `SELECT key FROM server_keys WHERE name = 'secret-hmac'`).Scan(&key)
	if errors.Is(err, sql.ErrNoRows) {
		key = make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return nil, fmt.Errorf("store: server key: %w", err)
		}
		// another judge may make one at the same moment: the first stays, and both read it
		q := `INSERT INTO server_keys (name, key) VALUES ('secret-hmac', ?) ON CONFLICT (name) DO NOTHING`
		if pg {
			q = rebind(q)
		}
		if _, err := db.ExecContext(ctx, q, key); err != nil {
			return nil, fmt.Errorf("store: server key: %w", err)
		}
		err = db.QueryRowContext(ctx, `SELECT key FROM server_keys WHERE name = 'secret-hmac'`).Scan(&key)
	}
	if err != nil {
		return nil, fmt.Errorf("store: server key: %w", err)
	}
	if len(key) != 32 {
		return nil, fmt.Errorf("store: server key: %d bytes, want 32", len(key))
	}
	return key, nil
}

// ReplaceSecretHash puts a keyed hash where a bcrypt one was (players and game masters
// whose secret was just shown right); it returns how many rows changed.
func (t *Tx) ReplaceSecretHash(old, keyed string) (int64, error) {
	if !looksLikeBcrypt(old) || !IsKeyedHash(keyed) {
		return 0, fmt.Errorf("store: replace secret hash: want a bcrypt hash replaced by a keyed one")
	}
	var n int64
	for _, table := range []string{"players", "gms"} {
		res, err := t.exec(`UPDATE `+table+` SET secret_hash = ? WHERE secret_hash = ?`, keyed, old)
		if err != nil {
			return n, fmt.Errorf("store: replace secret hash in %s: %w", table, err)
		}
		c, _ := res.RowsAffected()
		n += c
	}
	return n, nil
}

// secretShape matches a secret as NewSecret writes it: four groups of four letters of
// secretAlphabet.
var secretShape = regexp.MustCompile(`\b[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}\b`)

// RedactSecrets replaces everything in b shaped like a secret NewSecret makes with
// "(secret)". Mail that carried a secret (a JOIN reply, a welcome) is kept this way once
// it has been sent, so the database and its backups hold no plain secret. It finds what
// secretShape matches, scanning by hand: every received mail passes through it, and the
// regular expression was the largest single cost of intake (issue 14). A secret cut by
// quoted-printable soft line breaks ("=" at a line's end) is found too, whatever the
// part's declared encoding: a reader that decodes it sees the secret whole, and one that
// does not loses nothing of an order sheet (FuzzRedactInboundRaw found a body without a
// Content-Transfer-Encoding holding one).
//
// Every secret has a dash a few bytes after its start, so only the bytes just before a
// dash are tried as starts (bytes.IndexByte finds the dashes fast): a picture's base64
// lines, which have none, cost a look and nothing more. The starts tried are in order
// and skip what a match took, as a scan of every byte would, so the result is the same
// (FuzzRedactSecrets holds it to the regular expression).
func RedactSecrets(b []byte) ([]byte, bool) {
	var out []byte
	last, next := 0, 0 // last: the end of the last match; next: the first start not tried
	for from := 0; from < len(b); {
		d := bytes.IndexByte(b[from:], '-')
		if d < 0 {
			break
		}
		dash := from + d
		for i := max(dash-firstDashReach, next, last); i < dash && i+secretLen <= len(b); i++ {
			if end := secretEnd(b, i); end > 0 {
				out = append(append(out, b[last:i]...), "(secret)"...)
				last = end
				i = last - 1
			}
		}
		next = max(dash, last)
		from = next + 1
	}
	if out == nil {
		return b, false
	}
	return append(out, b[last:]...), true
}

const secretLen = secretGroups*secretGroupLen + secretGroups - 1

// firstDashReach is how far before its first dash a secret can start: its first group's
// characters, each of which may follow a soft line break ("=\r\n", secretEnd).
const firstDashReach = secretGroupLen * 4

// secretEnd is the end of a secret starting at b[i], with soft line breaks allowed
// between its characters, or 0 when none starts there.
func secretEnd(b []byte, i int) int {
	if !inSecret[b[i]] || i > 0 && isWordByte[b[i-1]] {
		return 0
	}
	j := i + 1
	for k := 1; k < secretLen; k++ {
		if j < len(b) && b[j] == '=' {
			j += softBreak(b, j)
		}
		if j >= len(b) {
			return 0
		}
		if k%(secretGroupLen+1) == secretGroupLen {
			if b[j] != '-' {
				return 0
			}
		} else if !inSecret[b[j]] {
			return 0
		}
		j++
	}
	if j < len(b) && isWordByte[b[j]] {
		return 0
	}
	return j
}

// softBreak is the length of a quoted-printable soft line break ("=\n" or "=\r\n") at
// b[j], or 0.
func softBreak(b []byte, j int) int {
	if j+1 < len(b) && b[j] == '=' {
		if b[j+1] == '\n' {
			return 2
		}
		if j+2 < len(b) && b[j+1] == '\r' && b[j+2] == '\n' {
			return 3
		}
	}
	return 0
}

// inSecret marks the bytes of secretAlphabet; isWordByte those of \w.
var inSecret, isWordByte [256]bool

func init() {
	for _, c := range []byte(secretAlphabet) {
		inSecret[c] = true
	}
	for c := 0; c < 256; c++ {
		isWordByte[c] = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
	}
}
