package rja

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
)

// FromRecord builds the archive of a stored game from its record in the older
// encodings (game.Record with Kind "": the course by name, the engine's rules, each
// turn's bare states and played orders; RoboRally's Unadopt makes one of a game played
// behind the seam): its turns from the set-up to the latest, the course inline (looked
// up by name with course, its boards with boards) and the hash of every stored state
// after. Press is as the public saw it: the sender only when it signed.
func FromRecord(rec game.Record, course func(string) (*adjudicator.Course, error),
	boards func(string) (*adjudicator.BoardFile, error)) (Archive, error) {
	what := "archive: game " + rec.Tag
	c, err := course(rec.Course)
	if err != nil {
		return Archive{}, fmt.Errorf("%s: course %q: %w", what, rec.Course, err)
	}
	inline, err := Inline(c, boards)
	if err != nil {
		return Archive{}, fmt.Errorf("%s: %w", what, err)
	}
	rules := adjudicator.PostalRules()
	if len(rec.Config) > 0 {
		if err := json.Unmarshal(rec.Config, &rules); err != nil {
			return Archive{}, fmt.Errorf("%s: rules: %w", what, err)
		}
	}
	a := Archive{Game: rec.Tag, Name: rec.Name, Course: inline, Rules: rec.Config, Options: rules.Dealt(), Seed: rec.Seed}
	var prev *adjudicator.State
	for n, tn := range rec.Turns {
		if tn.Number != n {
			return Archive{}, fmt.Errorf("%s: turn %d: not in the record (turns run 0, 1, 2, … without gaps)", what, n)
		}
		var after adjudicator.State
		if err := json.Unmarshal(tn.After, &after); err != nil {
			return Archive{}, fmt.Errorf("%s: turn %d: state after: %w", what, n, err)
		}
		t := Turn{Turn: n, Hash: hashBytes(tn.After)}
		if n == 0 {
			for _, r := range after.Robots {
				a.Robots = append(a.Robots, r.Name)
			}
		} else {
			if err := json.Unmarshal(tn.Orders, &t.Orders); err != nil {
				return Archive{}, fmt.Errorf("%s: turn %d: played orders: %w", what, n, err)
			}
			if len(t.Orders) != len(prev.Robots) {
				return Archive{}, fmt.Errorf("%s: turn %d: %d played orders for %d robots (a turn resolved before the judge kept its orders?)",
					what, n, len(t.Orders), len(prev.Robots))
			}
			for i := range t.Orders {
				if s := t.Orders[i].Sheet; s != nil {
					clean := *s
					clean.Secret, clean.Program = "", nil
					t.Orders[i].Sheet = &clean
				}
			}
			// Carry the state given to the engine only when it is not the state
			// before with the missed-orders policy applied.
			derived, err := beforeOf(prev, &t)
			var db []byte
			if err == nil {
				db, _ = json.Marshal(derived)
			}
			if err != nil || !bytes.Equal(db, tn.Before) {
				t.Before = append(json.RawMessage(nil), tn.Before...)
			}
		}
		a.Turns = append(a.Turns, t)
		prev = &after
	}
	if len(a.Turns) == 0 {
		return Archive{}, fmt.Errorf("%s: no turns (not even the set-up)", what)
	}
	for _, p := range rec.Press {
		// Press the judge numbers turn n was sent after turn n-1 resolved: it goes on
		// that turn's line. Press of a turn since rolled back, numbered past the
		// next one, goes on the last line.
		n := min(max(p.Turn-1, 0), len(a.Turns)-1)
		ap, err := publicPress(&a, p)
		if err != nil {
			return Archive{}, fmt.Errorf("%s: press %d (turn %d): %w", what, p.ID, p.Turn, err)
		}
		a.Turns[n].Press = append(a.Turns[n].Press, ap)
	}
	a.Count = len(a.Turns)
	return a, nil
}

// publicPress is a stored message as the public sees it: the sender only when it was
// signed, the text with carriage returns and other control characters (but newline
// and tab) dropped and invalid UTF-8 replaced.
func publicPress(a *Archive, p game.RecordPress) (Press, error) {
	out := Press{From: Anonymous, To: p.To}
	if p.Signed {
		out.From = p.From
	}
	text := strings.ToValidUTF8(strings.ReplaceAll(p.Body, "\r\n", "\n"), "\uFFFD")
	out.Text = strings.Map(func(r rune) rune {
		if (r < ' ' && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return -1
		}
		return r
	}, text)
	if len(out.Text) > MaxPressBytes {
		// Longer than an archive carries (a judge may read mails up to its
		// limits.max_message_bytes): cut at a character, and say so.
		note := fmt.Sprintf("\n[cut by the archive: %d bytes longer]", len(out.Text))
		cut := MaxPressBytes - len(note) - 8
		for cut > 0 && !utf8.RuneStart(out.Text[cut]) {
			cut--
		}
		note = fmt.Sprintf("\n[cut by the archive: %d bytes longer]", len(out.Text)-cut)
		out.Text = out.Text[:cut] + note
	}
	if m := checkPress(a, &out); m != "" {
		return Press{}, fmt.Errorf("%s", m)
	}
	return out, nil
}
