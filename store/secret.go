package store

import (
	"crypto/rand"
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

// HashSecret hashes a secret with bcrypt for storage.
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

// secretShape matches a secret as NewSecret writes it: four groups of four letters of
// secretAlphabet.
var secretShape = regexp.MustCompile(`\b[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}\b`)

// RedactSecrets replaces everything in b shaped like a secret NewSecret makes with
// "(secret)". Mail that carried a secret (a JOIN reply, a welcome) is kept this way once
// it has been sent, so the database and its backups hold no plain secret.
func RedactSecrets(b []byte) ([]byte, bool) {
	if !secretShape.Match(b) {
		return b, false
	}
	return secretShape.ReplaceAll(b, []byte("(secret)")), true
}
