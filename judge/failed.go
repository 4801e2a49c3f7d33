package judge

import (
	"bytes"
	"fmt"
	"mime/quotedprintable"
	"regexp"
	"sort"
	"strings"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// A mail whose processing broke (a bad template override, a full disk, a bug) is kept
// as failed, to be judged again by Recover once what broke is mended, and to be read by
// the operator. It must not keep its secrets in clear meanwhile (issue 14 item 8), nor
// lose what a retry needs: so each secret it carried — the value of a "secret ..." line,
// anything shaped like a judge-made secret or code — is replaced in the stored bytes by
// a marker, "(secret-1)", "(secret-2)" ..., and the keyed hash of what each replaced is
// kept beside the row (store/inboxproofs.go: the form the secret columns hold, never the
// secret). Judged again, the mail reads the marker where the secret was, and secretOK
// checks it against the owner's stored hash by its proof: the retry authenticates as the
// first try would have. A proof cannot come from a mail (only from this file), so a mail
// that writes a marker itself proves nothing.
//
// When a secret cannot be replaced in the bytes (a base64 part, quoted-printable with a
// soft break inside it, an HTML twin), the stored mail is the header and the text the
// judge read, with the markers, as plain text: the retry reads the same text. A secret
// in an encoded header field as well leaves only a note, and the retry cannot
// authenticate (the note says so). A bcrypt hash (from before keyed hashes) cannot be
// checked by a proof: such a retry is refused as a wrong secret.

// markerRE matches a marker failInbox writes.
var markerRE = regexp.MustCompile(`^\(secret-[0-9]+\)$`)

// failInbox records that handling row broke (note says how), keeping it for a retry with
// its secrets replaced by markers and their proofs.
func (j *Judge) failInbox(tx *store.Tx, row store.InboxMessage, msg *mail.Message, note string) error {
	text := ""
	if msg != nil {
		text = msg.Text
	}
	raw, proofs, ok := redactForRetry(j.Store.SecretKey(), row.Raw, text, row.Proofs)
	if !ok {
		note += " (a secret in an encoded header could not be kept apart: the mail was removed, and a retry cannot authenticate)"
	}
	if !bytes.Equal(raw, row.Raw) {
		j.scrubLater() // the log still holds the mail as it came (secretslots.go)
	} else {
		raw = nil
	}
	return tx.InboxFail(row.ID, clip(note, 500), j.now(), raw, proofs)
}

// redactForRetry is raw with every secret it carries replaced by a marker, and the
// proofs by marker (have: those of an earlier failure, kept). text is what the judge
// read of the mail. ok is false when the mail had to be removed whole.
func redactForRetry(key, raw []byte, text string, have map[string]string) ([]byte, map[string]string, bool) {
	proofs := map[string]string{}
	for m, p := range have {
		proofs[m] = p
	}
	var values []string
	seen := map[string]bool{}
	add := func(v string) {
		if len(v) >= 4 && v != "(secret)" && !markerRE.MatchString(v) && !seen[v] {
			seen[v] = true
			values = append(values, v)
		}
	}
	for _, m := range secretLine.FindAllStringSubmatch(text, -1) {
		add(m[1])
	}
	for _, v := range store.SecretsIn([]byte(text)) {
		add(v)
	}
	for _, v := range store.SecretsIn(raw) {
		add(v)
	}
	// a marker for each value: one the mail does not already hold
	marker := map[string]string{}
	n := 0
	for _, v := range values {
		for {
			n++
			m := fmt.Sprintf("(secret-%d)", n)
			if _, used := proofs[m]; !used && !bytes.Contains(raw, []byte(m)) && !strings.Contains(text, m) {
				marker[v] = m
				proofs[m] = store.KeyedHash(key, v)
				break
			}
		}
	}
	// the longest first, so a value inside another goes with it
	byLen := append([]string(nil), values...)
	sort.SliceStable(byLen, func(a, b int) bool { return len(byLen[a]) > len(byLen[b]) })
	out := bytes.Clone(raw)
	hidden := false
	for _, v := range byLen {
		if !bytes.Contains(raw, []byte(v)) {
			hidden = true // encoded: base64, or cut by a quoted-printable soft break
		}
		out = bytes.ReplaceAll(out, []byte(v), []byte(marker[v]))
		text = strings.ReplaceAll(text, v, marker[v])
	}
	if hidden || carriesSecret(out, values) {
		out = withText(out, text)
		if carriesSecret(out, values) {
			return []byte("X-Rallyjudge-Removed: the mail carried a secret in its header\r\n\r\n(removed by rallyjudge)\r\n"), nil, false
		}
	}
	return out, proofs, true
}

// withText is raw's header without its Content-* fields, and text as its plain-text
// body (quoted-printable): what the judge read of the mail, in the shape it reads again.
func withText(raw []byte, text string) []byte {
	head := withoutBody(raw)
	head = head[:bytes.LastIndex(head, []byte("Content-Type: text/plain; charset=utf-8\r\n\r\n"))]
	var b bytes.Buffer
	b.Write(head)
	b.WriteString("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n")
	w := quotedprintable.NewWriter(&b)
	_, _ = w.Write([]byte(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", "\r\n")))
	_ = w.Close()
	b.WriteString("\r\n")
	return b.Bytes()
}

// secretOK reports whether given is the secret of hash: by its proof when given is a
// marker of a failed mail judged again (proofs, by marker), else as any secret is
// checked (allowSlow as secretCache.checkSlow).
func (j *Judge) secretOK(proofs map[string]string, hash, given string, allowSlow bool) bool {
	return j.secretOKKeyed(proofs, hash, given, "", allowSlow)
}

// secretOKKeyed is secretOK with keyed, store.KeyedHash of given with the store's key,
// when it was worked out ahead ("": worked out here, if needed).
func (j *Judge) secretOKKeyed(proofs map[string]string, hash, given, keyed string, allowSlow bool) bool {
	if p, ok := proofs[given]; ok {
		return store.ProofMatches(hash, p)
	}
	if keyed != "" && store.IsKeyedHash(hash) {
		return store.MatchesKeyed(hash, keyed)
	}
	return j.verified.checkSlow(hash, given, allowSlow)
}
