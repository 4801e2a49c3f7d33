package store

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Secret slots: no plain secret at rest in the outbox (issue 14 item 8).
//
// A mail that carries a secret (a welcome, the reply to a JOIN's CONFIRM, NEWSECRET, a
// REPLACE's welcome, a game master's secret, a JOIN's or an address change's code) is
// stored with a placeholder where the secret goes, and the outbox row names whose secret
// it is (OutboxMail.Slots). The sender fills the placeholder in at send time, in memory,
// and the row keeps the placeholder: neither the pending row nor the copy kept once sent
// ever holds the secret, whether SMTP is up or down for hours.
//
// The placeholder, SlotText, is as long as a secret (19 characters) and made of letters,
// digits and '-' like one, so it needs no escaping in HTML and none in quoted-printable:
// the composed mail's line breaks fall the same whether it holds the placeholder or the
// secret, and FillSlots can put the secret in by replacing byte for byte, soft line
// breaks (=CRLF) inside it kept. It is upper-case, so it is never taken for a secret
// (RedactSecrets leaves it), and it names its owner, so a mail can carry several.

// OwnerKind is what a secret belongs to.
type OwnerKind byte

// The owners of secrets and codes.
const (
	OwnerPlayer  OwnerKind = 'P' // players.secret_hash
	OwnerGM      OwnerKind = 'G' // gms.secret_hash
	OwnerJoin    OwnerKind = 'J' // pending_joins.code_hash: a JOIN's CONFIRM code
	OwnerAddress OwnerKind = 'A' // address_changes.code_hash: a new address's CONFIRM code
)

// Owner names one secret: the row whose hash it is checked against.
type Owner struct {
	Kind OwnerKind
	ID   int64
}

func (o Owner) String() string { return string(o.Kind) + strconv.FormatInt(o.ID, 10) }

func (o Owner) valid() bool {
	switch o.Kind {
	case OwnerPlayer, OwnerGM, OwnerJoin, OwnerAddress:
		return o.ID > 0 && o.ID <= 9999999999
	}
	return false
}

// SlotText is the placeholder written in a mail where o's secret goes.
func SlotText(o Owner) string { return fmt.Sprintf("SECRET-%c-%010d", o.Kind, o.ID) }

// slotPattern matches o's placeholder in a quoted-printable (or plain) body: a soft
// line break (=CRLF or =LF) may stand between any two of its characters.
func slotPattern(o Owner) *regexp.Regexp {
	s := SlotText(o)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if i > 0 {
			b.WriteString(`(?:=\r?\n)?`)
		}
		b.WriteString(regexp.QuoteMeta(s[i : i+1]))
	}
	return regexp.MustCompile(b.String())
}

// bodyStart is where raw's body begins (after the header's blank line).
func bodyStart(raw []byte) int {
	if i := bytes.Index(raw, []byte("\r\n\r\n")); i >= 0 {
		return i + 4
	}
	if i := bytes.Index(raw, []byte("\n\n")); i >= 0 {
		return i + 2
	}
	return len(raw)
}

// HasSlot reports whether raw's body holds o's placeholder where FillSlots finds it.
func HasSlot(raw []byte, o Owner) bool {
	return slotPattern(o).Match(raw[bodyStart(raw):])
}

// FillSlots returns a copy of raw with each owner's placeholder in the body replaced by
// its secret from values, byte for byte (soft line breaks kept). Every slot must be
// found, and every secret must be as long as its placeholder and written with letters,
// digits and '-' only, so the encoding stays valid.
func FillSlots(raw []byte, slots []Owner, values map[Owner]string) ([]byte, error) {
	out := bytes.Clone(raw)
	body := out[bodyStart(out):]
	for _, o := range slots {
		v, ok := values[o]
		ph := SlotText(o)
		switch {
		case !ok:
			return nil, fmt.Errorf("store: fill secret %s: no value", o)
		case len(v) != len(ph) || strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") != "":
			return nil, fmt.Errorf("store: fill secret %s: not a secret of the judge's shape", o)
		}
		locs := slotPattern(o).FindAllIndex(body, -1)
		if len(locs) == 0 {
			return nil, fmt.Errorf("store: fill secret %s: the mail has no place for it", o)
		}
		for _, l := range locs {
			k := 0
			for i := l[0]; i < l[1]; i++ {
				if body[i] == '=' && i+1 < l[1] && (body[i+1] == '\r' || body[i+1] == '\n') {
					for i < l[1] && body[i] != '\n' {
						i++
					}
					continue
				}
				body[i] = v[k]
				k++
			}
		}
	}
	return out, nil
}

// slotsText is the secret_slots column of a mail; each slot's placeholder must be in raw.
func slotsText(slots []Owner, raw []byte) (string, error) {
	var parts []string
	for _, o := range slots {
		if !o.valid() {
			return "", fmt.Errorf("secret slot %q is not an owner", o)
		}
		if !HasSlot(raw, o) {
			return "", fmt.Errorf("secret slot %s: the mail has no placeholder for it", o)
		}
		parts = append(parts, o.String())
	}
	return strings.Join(parts, " "), nil
}

func parseSlots(s string) ([]Owner, error) {
	var out []Owner
	for _, f := range strings.Fields(s) {
		id, err := strconv.ParseInt(f[1:], 10, 64)
		o := Owner{Kind: OwnerKind(f[0]), ID: id}
		if err != nil || !o.valid() {
			return nil, fmt.Errorf("%q is not an owner", f)
		}
		out = append(out, o)
	}
	return out, nil
}

// ownerColumn is the table and column that hold o's hash.
func ownerColumn(o Owner) (table, column string, err error) {
	switch o.Kind {
	case OwnerPlayer:
		return "players", "secret_hash", nil
	case OwnerGM:
		return "gms", "secret_hash", nil
	case OwnerJoin:
		return "pending_joins", "code_hash", nil
	case OwnerAddress:
		return "address_changes", "code_hash", nil
	}
	return "", "", fmt.Errorf("store: secret of %s: no such owner", o)
}

// SecretHashOf is the stored hash of o's secret (ErrNotFound when o is gone).
func (t *Tx) SecretHashOf(o Owner) (string, error) {
	table, col, err := ownerColumn(o)
	if err != nil {
		return "", err
	}
	var h string
	err = t.queryRow(`SELECT `+col+` FROM `+table+` WHERE id = ?`, o.ID).Scan(&h)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			err = ErrNotFound
		}
		return "", fmt.Errorf("store: secret of %s: %w", o, err)
	}
	return h, nil
}

// SetSecretHashOf replaces the stored hash of o's secret.
func (t *Tx) SetSecretHashOf(o Owner, hash string) error {
	table, col, err := ownerColumn(o)
	if err != nil {
		return err
	}
	if err := checkHash(hash); err != nil {
		return fmt.Errorf("store: set secret of %s: %w", o, err)
	}
	return t.updateOne(fmt.Sprintf("set secret of %s", o), `UPDATE `+table+` SET `+col+` = ? WHERE id = ?`, hash, o.ID)
}
