package archive

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/store"
)

// FromStore builds the archive of a stored game: its live (not void) turns from the
// set-up to the latest, the course (a shipped one, by the game's course name) inline,
// and the hash of every stored state after. The players' addresses and secrets are not
// read.
func FromStore(tx *store.Tx, gameID int64) (Archive, error) {
	return FromStoreWith(tx, gameID, adjudicator.LoadCourse, adjudicator.LoadBoard)
}

// FromStoreWith is FromStore with the course and its boards looked up by the given
// functions (the judge's Course hook).
func FromStoreWith(tx *store.Tx, gameID int64, course func(string) (*adjudicator.Course, error),
	boards func(string) (*adjudicator.BoardFile, error)) (Archive, error) {
	g, err := tx.Game(gameID)
	if err != nil {
		return Archive{}, fmt.Errorf("archive: %w", err)
	}
	return fromStore(tx, g, course, boards, func(tn store.Turn) (store.Turn, error) { return tn, nil })
}

// FromStoreAs is FromStoreWith for a game behind the seam whose game writes the
// format of the games it adopted (game.Unadopter: RoboRally): its settings and its
// turns read back into the older encodings, the state the engine was given made again
// from the position before each turn and the moves played (turns.orders).
func FromStoreAs(tx *store.Tx, gameID int64, course func(string) (*adjudicator.Course, error),
	boards func(string) (*adjudicator.BoardFile, error), u game.Unadopter) (Archive, error) {
	g, err := tx.Game(gameID)
	if err != nil {
		return Archive{}, fmt.Errorf("archive: %w", err)
	}
	config := g.Rules
	if g.Course, g.Rules, err = u.UnadoptConfig(config); err != nil {
		return Archive{}, fmt.Errorf("archive: game %s: settings: %w", g.Tag, err)
	}
	var prev json.RawMessage
	return fromStore(tx, g, course, boards, func(tn store.Turn) (store.Turn, error) {
		var before json.RawMessage
		moves := map[int]game.Move{}
		if tn.Number > 0 {
			if before = tn.Before; len(before) == 0 {
				before = prev
			}
			var played []hostedPlayed
			if err := json.Unmarshal(tn.Orders, &played); err != nil {
				return tn, fmt.Errorf("the moves played: %w", err)
			}
			for _, p := range played {
				moves[p.Seat] = p.Move
			}
		}
		prev = tn.After
		lt, err := u.UnadoptTurn(config, before, moves, tn.After, tn.Events)
		if err != nil {
			return tn, err
		}
		tn.Before, tn.After, tn.Orders = lt.Before, lt.After, lt.Orders
		return tn, nil
	})
}

func fromStore(tx *store.Tx, g store.Game, course func(string) (*adjudicator.Course, error),
	boards func(string) (*adjudicator.BoardFile, error), conv func(store.Turn) (store.Turn, error)) (Archive, error) {
	what := "archive: game " + g.Tag
	c, err := course(g.Course)
	if err != nil {
		return Archive{}, fmt.Errorf("%s: course %q: %w", what, g.Course, err)
	}
	inline, err := Inline(c, boards)
	if err != nil {
		return Archive{}, fmt.Errorf("%s: %w", what, err)
	}
	rules := adjudicator.PostalRules()
	if len(g.Rules) > 0 {
		if err := json.Unmarshal(g.Rules, &rules); err != nil {
			return Archive{}, fmt.Errorf("%s: rules: %w", what, err)
		}
	}
	a := Archive{Game: g.Tag, Name: g.Name, Course: inline, Rules: g.Rules, Options: rules.Dealt(), Seed: g.Seed}
	last, err := tx.LatestTurn(g.ID)
	if err != nil {
		return Archive{}, fmt.Errorf("%s: %w", what, err)
	}
	var prev *adjudicator.State
	for n := 0; n <= last.Number; n++ {
		tn, err := tx.Turn(g.ID, n)
		if err != nil {
			return Archive{}, fmt.Errorf("%s: %w", what, err)
		}
		if tn, err = conv(tn); err != nil {
			return Archive{}, fmt.Errorf("%s: turn %d: %w", what, n, err)
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
	press, err := tx.PressOf(g.ID)
	if err != nil {
		return Archive{}, fmt.Errorf("%s: %w", what, err)
	}
	for _, p := range press {
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
func publicPress(a *Archive, p store.Press) (Press, error) {
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
