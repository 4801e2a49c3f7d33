package store

import (
	"bytes"
	"crypto/hmac"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Proofs of a failed mail's secrets (migration 011, issue 14 item 8).
//
// A mail whose processing broke is kept to be judged again (judge's Recover), so its
// secrets cannot simply be removed as they are from a mail that was judged: the retry
// must still know the sender showed the right one. The judge replaces each secret in the
// stored bytes by a marker and keeps, for each marker, the keyed hash of what it replaced
// (KeyedHash: the form the secret columns hold, never the secret itself). A retry checks
// a marker against the owner's stored hash with ProofMatches; nothing a mail says can add
// a proof, so a mail that writes a marker itself proves nothing.

// InboxFail records that handling the message broke: status failed, the note, its raw
// bytes replaced by raw (when not nil: the mail with its secrets replaced by markers),
// and proofs (marker → keyed hash) in place of any it had. A proof must be a keyed hash
// of one secret.
func (t *Tx) InboxFail(id int64, note string, now time.Time, raw []byte, proofs map[string]string) error {
	if err := t.InboxFinish(id, InboxFailed, note, now, raw); err != nil {
		return err
	}
	return t.SetInboxProofs(id, proofs)
}

// SetInboxProofs replaces the proofs kept for inbox row id (none: nil).
func (t *Tx) SetInboxProofs(id int64, proofs map[string]string) error {
	if _, err := t.exec(`DELETE FROM inbox_proofs WHERE inbox_id = ?`, id); err != nil {
		return fmt.Errorf("store: inbox %d proofs: %w", id, err)
	}
	markers := make([]string, 0, len(proofs))
	for m := range proofs {
		markers = append(markers, m)
	}
	sort.Strings(markers)
	for _, m := range markers {
		p := proofs[m]
		if m == "" || !strings.HasPrefix(p, hmacPrefix) || !IsKeyedHash(p) {
			return fmt.Errorf("store: inbox %d proof %q: want a marker and the keyed hash of one secret", id, m)
		}
		if _, err := t.exec(`INSERT INTO inbox_proofs (inbox_id, marker, proof) VALUES (?,?,?)`, id, m, p); err != nil {
			return fmt.Errorf("store: inbox %d proof %q: %w", id, m, err)
		}
	}
	return nil
}

// InboxProofs is the proofs kept for inbox row id, by marker (nil when none).
func (t *Tx) InboxProofs(id int64) (map[string]string, error) {
	rows, err := t.query(`SELECT marker, proof FROM inbox_proofs WHERE inbox_id = ?`, id)
	if err != nil {
		return nil, fmt.Errorf("store: inbox %d proofs: %w", id, err)
	}
	defer rows.Close()
	var out map[string]string
	for rows.Next() {
		var m, p string
		if err := rows.Scan(&m, &p); err != nil {
			return nil, fmt.Errorf("store: inbox %d proofs: %w", id, err)
		}
		if out == nil {
			out = map[string]string{}
		}
		out[m] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: inbox %d proofs: %w", id, err)
	}
	return out, nil
}

// ProofMatches reports whether proof (the keyed hash of a secret a mail carried) is of
// a secret that h (a stored keyed hash, of one secret or two) lets pass, in constant
// time. A bcrypt h cannot be checked this way: false.
func ProofMatches(h, proof string) bool {
	if !IsKeyedHash(h) || !strings.HasPrefix(proof, hmacPrefix) || !IsKeyedHash(proof) {
		return false
	}
	mac := []byte(proof[len(hmacPrefix):])
	if strings.HasPrefix(h, hmacPrefix2) {
		a, b := h[len(hmacPrefix2):len(hmacPrefix2)+43], h[len(hmacPrefix2)+44:]
		okA, okB := hmac.Equal(mac, []byte(a)), hmac.Equal(mac, []byte(b))
		return okA || okB
	}
	return hmac.Equal(mac, []byte(h[len(hmacPrefix):]))
}

// SecretsIn lists the distinct substrings of b shaped like a secret NewSecret makes
// (what RedactSecrets replaces), in the order they first appear.
func SecretsIn(b []byte) []string {
	var out []string
	seen := map[string]bool{}
	for i := 0; i+secretLen <= len(b); i++ {
		if end := secretEnd(b, i); end > 0 {
			s := string(bytes.ReplaceAll(bytes.ReplaceAll(b[i:end], []byte("=\r\n"), nil), []byte("=\n"), nil))
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
			i = end - 1
		}
	}
	return out
}
