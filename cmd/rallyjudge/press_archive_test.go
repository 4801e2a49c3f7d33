package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/roborally/rja"
	"github.com/rallyjudge/rallyjudge/store"
)

// addPress stores messages in game "cli" as the judge's PRESS does (numbered by the
// turn being played when sent).
func addPress(t *testing.T, db string, ps ...store.Press) {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	err = st.Tx(context.Background(), func(tx *store.Tx) error {
		g, err := tx.GameByTag("cli")
		if err != nil {
			return err
		}
		for i, p := range ps {
			p.GameID = g.ID
			p.Sent = time.Date(2026, 3, 1, 12, i, 0, 0, time.UTC)
			if _, err := tx.AddPress(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func pressOf(t *testing.T, db, tag string) []store.Press {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var ps []store.Press
	err = st.Tx(context.Background(), func(tx *store.Tx) error {
		g, err := tx.GameByTag(tag)
		if err != nil {
			return err
		}
		ps, err = tx.PressOf(g.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestPressExportImport: export carries the press as the public saw it, replay --turn
// shows it, import restores it (a fork only the press before its turn), and anonymous
// press never reveals its sender: two games alike but for who sent the anonymous
// message export to the same bytes.
func TestPressExportImport(t *testing.T) {
	press := func(anonFrom string) []store.Press {
		return []store.Press{
			{Turn: 2, From: "Twonky", To: []string{"Zoombot"}, Signed: true, Body: "Meet me\r\nat flag 1."},
			{Turn: 3, From: anonFrom, Signed: false, Body: "Someone is bluffing.\x1b[2J"},
			{Turn: 5, From: "Zoombot", Signed: true, Body: "After the last turn."},
		}
	}
	dir := t.TempDir()
	export := func(db, name string) []byte {
		t.Helper()
		out := filepath.Join(dir, name)
		if code, _, errs := runCmd("export", "cli", "--db", db, "-o", out); code != 0 {
			t.Fatalf("export: %d %s", code, errs)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	db := judgeDB(t, 4) // turns 1-4 resolved, turn 5 being played
	addPress(t, db, press("Zoombot")...)
	rjaPath := filepath.Join(dir, "a.rja")
	b := export(db, "a.rja")

	db2 := judgeDB(t, 4)
	addPress(t, db2, press("Twonky")...)
	if b2 := export(db2, "b.rja"); !bytes.Equal(b, b2) {
		t.Fatal("the archive's bytes depend on who sent the anonymous press")
	}
	if bytes.Contains(b, []byte("@example.test")) {
		t.Fatal("an address in the archive")
	}

	a, err := readRJA(rjaPath)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][]rja.Press{
		1: {{From: "Twonky", To: []string{"Zoombot"}, Text: "Meet me\nat flag 1."}},
		2: {{From: rja.Anonymous, Text: "Someone is bluffing.[2J"}},
		4: {{From: "Zoombot", Text: "After the last turn."}},
	}
	for _, tn := range a.Turns {
		w := want[tn.Turn]
		if len(tn.Press) != len(w) {
			t.Fatalf("turn line %d: %d press, want %d", tn.Turn, len(tn.Press), len(w))
		}
		for i := range w {
			g := tn.Press[i]
			if g.From != w[i].From || strings.Join(g.To, ",") != strings.Join(w[i].To, ",") || g.Text != w[i].Text {
				t.Fatalf("turn line %d press %d: %+v, want %+v", tn.Turn, i, g, w[i])
			}
		}
	}

	code, out, errs := runCmd("replay", rjaPath, "--turn", "3")
	if code != 0 || !strings.Contains(out, "Press of turn 3 (sent before it resolved):\n  from anonymous to everyone:\n    | Someone is bluffing.[2J\n") ||
		!strings.Contains(out, "Press after turn 3 (sent during turn 4):\n  none\n") {
		t.Fatalf("replay --turn 3: %d %s\n%s", code, errs, out)
	}
	code, out, _ = runCmd("replay", rjaPath, "--turn", "1")
	if code != 0 || !strings.Contains(out, "Press after turn 1 (sent during turn 2):\n  from Twonky to Zoombot:\n    | Meet me\n    | at flag 1.\n") {
		t.Fatalf("replay --turn 1: %d\n%s", code, out)
	}

	// Continue the game: all press comes back, numbered as the judge numbered it.
	if code, _, errs := runCmd("import", rjaPath, "--db", db, "--tag", "cli-on"); code != 0 {
		t.Fatalf("import: %d %s", code, errs)
	}
	got := pressOf(t, db, "cli-on")
	if len(got) != 3 {
		t.Fatalf("imported press: %d, want 3: %+v", len(got), got)
	}
	for i, w := range []struct {
		turn   int
		from   string
		signed bool
		to     string
		body   string
	}{
		{2, "Twonky", true, "Zoombot", "Meet me\nat flag 1."},
		{3, rja.Anonymous, false, "", "Someone is bluffing.[2J"},
		{5, "Zoombot", true, "", "After the last turn."},
	} {
		g := got[i]
		if g.Turn != w.turn || g.From != w.from || g.Signed != w.signed || strings.Join(g.To, ",") != w.to || g.Body != w.body {
			t.Fatalf("imported press %d: %+v, want %+v", i, g, w)
		}
	}
	// Exported again, the imported game carries the same press.
	code, out, errs = runCmd("export", "cli-on", "--db", db)
	if code != 0 {
		t.Fatalf("export of the imported game: %d %s", code, errs)
	}
	a2, err := rja.Read(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	for n := range a.Turns {
		if len(a2.Turns[n].Press) != len(a.Turns[n].Press) {
			t.Fatalf("re-exported turn line %d: %d press, want %d", n, len(a2.Turns[n].Press), len(a.Turns[n].Press))
		}
	}

	// A fork from turn 2 keeps the press of turns 1 and 2 only.
	if code, _, errs := runCmd("import", rjaPath, "--db", db, "--from", "2", "--tag", "cli-fork"); code != 0 {
		t.Fatalf("fork: %d %s", code, errs)
	}
	if got := pressOf(t, db, "cli-fork"); len(got) != 1 || got[0].Turn != 2 {
		t.Fatalf("fork's press: %+v, want only turn 2's", got)
	}
}
