package judge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/archive"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/roborally/rja"
	"github.com/rallyjudge/rallyjudge/store"
)

// playTurns plays n turns of the fixture's game: Twonky and Zoombot send orders
// (Twonky with a standing order), Hulk misses every turn and the deadline resolves it.
func (f *fixture) playTurns(n int) {
	f.t.Helper()
	for i := 0; i < n; i++ {
		extra := ""
		if i == 0 {
			extra = "if damage > 0 then power down\n"
		}
		if _, st := f.state(); st.Robots[0].Power == 0 && !st.Robots[0].Out {
			f.deliver(rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", extra)))
		}
		if _, st := f.state(); st.Robots[1].Power == 0 && !st.Robots[1].Out {
			f.deliver(rawMail("zoombot@example.test", "[RR spring] orders", f.sheet("Zoombot", "")))
		}
		f.now = f.now.Add(49 * time.Hour)
		if _, err := f.j.Tick(context.Background()); err != nil {
			f.t.Fatal(err)
		}
	}
}

func (f *fixture) archiveOf(tag string) rja.Archive {
	f.t.Helper()
	var a rja.Archive
	err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		g, err := tx.GameByTag(tag)
		if err != nil {
			return err
		}
		var err2 error
		a, err2 = f.j.roboRallyArchive(tx, g)
		return err2
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return a
}

// TestStoredGameArchiveReplays: a game played through the judge (orders, a standing
// order, missed turns) → archive → bytes → read → replay, bit for bit.
func TestStoredGameArchiveReplays(t *testing.T) {
	f := newFixture(t)
	f.playTurns(4)
	g, _ := f.state()
	if g.CurrentTurn != 5 {
		t.Fatalf("game at turn %d, want 5", g.CurrentTurn)
	}
	a := f.archiveOf("spring")
	if len(a.Turns) != 5 || a.Turns[1].Orders[2].Missed != "powerdown" || a.Turns[2].Orders[0].Sheet == nil {
		t.Fatalf("archive: %d turns, turn 1 orders %+v", len(a.Turns), a.Turns[1].Orders)
	}
	var buf bytes.Buffer
	if err := rja.Write(&buf, a); err != nil {
		t.Fatal(err)
	}
	for _, secret := range f.secrets {
		if strings.Contains(buf.String(), secret) {
			t.Fatal("the archive holds a secret")
		}
	}
	if strings.Contains(buf.String(), "@example.test") {
		t.Fatal("the archive holds an address")
	}
	b, err := rja.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if err := rja.Replay(&b, nil, -1, nil); err != nil {
		t.Fatal(err)
	}
}

// TestImportForkResolvesOn: a fork from turn 2 holds turns 0–2 exactly as the original,
// goes on at turn 3 with fresh secrets and the standing orders in force, resolves, and
// its own archive replays.
func TestImportForkResolvesOn(t *testing.T) {
	f := newFixture(t)
	f.playTurns(4)
	a := f.archiveOf("spring")
	ctx := context.Background()
	secrets, err := f.j.ImportGame(ctx, &a, ImportSpec{Tag: "spring-what-if", From: 2,
		Emails: map[string]string{"Twonky": "new-twonky@example.test"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(secrets) != 3 || secrets["Twonky"] == "" || secrets["Twonky"] == f.secrets["Twonky"] {
		t.Fatalf("secrets: %d, Twonky's fresh: %v", len(secrets), secrets["Twonky"] != f.secrets["Twonky"])
	}
	var fork store.Game
	err = f.j.Store.View(ctx, func(tx *store.Tx) error {
		if fork, err = tx.GameByTag("spring-what-if"); err != nil {
			return err
		}
		orig, _ := tx.GameByTag("spring")
		for n := 0; n <= 2; n++ {
			x, err := tx.Turn(orig.ID, n)
			if err != nil {
				return err
			}
			y, err := tx.Turn(fork.ID, n)
			if err != nil {
				return err
			}
			// the engine's view of the turn (the original may have played it behind the
			// seam, the fork was adopted from the archive)
			if !bytes.Equal(testAfterJSON(x), testAfterJSON(y)) || n > 0 && (!bytes.Equal(testBeforeJSON(t, f.j, x), testBeforeJSON(t, f.j, y)) ||
				!bytes.Equal(testPlayedJSON(x), testPlayedJSON(y))) {
				t.Errorf("turn %d of the fork differs from the original", n)
			}
		}
		if _, err := tx.Turn(fork.ID, 3); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("fork has a turn 3: %v", err)
		}
		ps, err := tx.Players(fork.ID)
		if err != nil {
			return err
		}
		if len(ps) != 3 || ps[0].Email != "new-twonky@example.test" || ps[1].Email != "seat2@"+PlaceholderDomain {
			t.Errorf("players: %+v", ps)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fork.CurrentTurn != 3 || fork.Status != store.GameRunning || fork.DeadlineAt.IsZero() {
		t.Fatalf("fork at turn %d, %s, deadline %v", fork.CurrentTurn, fork.Status, fork.DeadlineAt)
	}
	welcomes := 0
	for _, m := range f.mailsTo("new-twonky@example.test", "welcome") {
		welcomes++
		if !strings.Contains(string(m.Raw), "spring-what-if") {
			t.Errorf("welcome mail does not name the fork")
		}
	}
	if welcomes != 1 || len(f.mailsTo("seat2@"+PlaceholderDomain, "")) != 0 {
		t.Fatalf("welcome mails: %d to Twonky, placeholders mailed: %d", welcomes, len(f.mailsTo("seat2@"+PlaceholderDomain, "")))
	}
	// Resolve on: nobody sends orders, the deadline passes.
	if ok, err := f.j.ResolveNow(ctx, fork.ID); err != nil || !ok {
		t.Fatalf("resolve the fork: %v %v", ok, err)
	}
	b := f.archiveOf("spring-what-if")
	if len(b.Turns) != 4 {
		t.Fatalf("fork archive has %d turns, want 4", len(b.Turns))
	}
	if s := b.Turns[3].Orders[0].Sheet; s == nil || len(s.Rules) != 1 {
		t.Fatalf("Twonky's standing order did not carry over: %+v", b.Turns[3].Orders[0])
	}
	if err := rja.Replay(&b, nil, -1, nil); err != nil {
		t.Fatal(err)
	}
	// The fork and the original part at turn 3 (the original's orders were played).
	if b.Turns[2].Hash != a.Turns[2].Hash {
		t.Fatal("turn 2 hashes differ")
	}
}

func TestImportRefuses(t *testing.T) {
	f := newFixture(t)
	f.playTurns(2)
	a := f.archiveOf("spring")
	ctx := context.Background()
	tampered := a
	tampered.Turns = append([]rja.Turn(nil), a.Turns...)
	tampered.Turns[2].Hash = strings.Repeat("a", 64)
	for _, tc := range []struct {
		name string
		a    rja.Archive
		spec ImportSpec
		want string
	}{
		{"bad tag", a, ImportSpec{Tag: "Bad Tag"}, "game tag"},
		{"taken tag", a, ImportSpec{Tag: "spring", From: -1}, "spring"},
		{"past the end", a, ImportSpec{Tag: "x", From: 9}, "ends at turn 2"},
		{"unknown robot", a, ImportSpec{Tag: "x", From: -1, Emails: map[string]string{"Nobody": "a@b.test"}}, "no robot \"Nobody\""},
		{"tampered", tampered, ImportSpec{Tag: "x", From: -1}, "turn 2:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.j.ImportGame(ctx, &tc.a, tc.spec)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestImport2023Game: a 2023 game's archive (its deck is the upgrades, not option
// cards) imports, goes on, and its own archive replays. It was refused: the import
// took the upgrade Deflector Shield for an option card the judge does not implement.
func TestImport2023Game(t *testing.T) {
	f := newFixture2023(t, "")
	for _, r := range []string{"Twonky", "Zoombot", "Hulk"} {
		f.deliver(rawMail(strings.ToLower(r)+"@example.test", "[RR spring] orders", f.sheet2023(r, "draw upgrade\n")))
	}
	if g, _ := f.state(); g.CurrentTurn != 2 {
		t.Fatalf("game at turn %d, want 2", g.CurrentTurn)
	}
	a := f.archiveOf("spring")
	ctx := context.Background()
	if _, err := f.j.ImportGame(ctx, &a, ImportSpec{Tag: "spring-2023", From: -1,
		Emails: map[string]string{"Twonky": "new-twonky@example.test"}}); err != nil {
		t.Fatal(err)
	}
	var fork store.Game
	if err := f.j.Store.View(ctx, func(tx *store.Tx) (err error) {
		fork, err = tx.GameByTag("spring-2023")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if ok, err := f.j.ResolveNow(ctx, fork.ID); err != nil || !ok {
		t.Fatalf("resolve the imported game: %v %v", ok, err)
	}
	b := f.archiveOf("spring-2023")
	if len(b.Turns) != 3 || b.Turns[1].Hash != a.Turns[1].Hash {
		t.Fatalf("imported archive: %d turns, turn 1 as the original's: %v", len(b.Turns), b.Turns[1].Hash == a.Turns[1].Hash)
	}
	if err := rja.Replay(&b, nil, -1, nil); err != nil {
		t.Fatal(err)
	}
}

// TestImportedGameListsTheCourseSeats: LIST shows an imported game's seats as the
// course has them (sprint seats 4), as it does for a game created by CREATE, not the
// judge's limit of 8.
func TestImportedGameListsTheCourseSeats(t *testing.T) {
	f := newFixture(t)
	f.playTurns(1)
	a := f.archiveOf("spring")
	ctx := context.Background()
	if _, err := f.j.ImportGame(ctx, &a, ImportSpec{Tag: "spring-again", From: -1}); err != nil {
		t.Fatal(err)
	}
	reply, err := f.j.RunCommand(ctx, "", Command{Verb: "LIST"})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(reply, "\n") {
		if strings.Contains(line, "spring") && !strings.Contains(line, "3/4 players") {
			t.Errorf("LIST: %q, want 3/4 players (sprint seats 4)\n%s", line, reply)
		}
	}
	var o Options
	err = f.j.Store.View(ctx, func(tx *store.Tx) error {
		g, err := tx.GameByTag("spring-again")
		if err != nil {
			return err
		}
		o, err = f.j.optionsOf(tx, g)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if o.maxPlayers() != 4 {
		t.Errorf("the imported game seats %d, the course 4", o.maxPlayers())
	}
	// A game imported before the import stored its seats has no seats stored: LIST
	// still counts the course's.
	err = f.j.Store.Tx(ctx, func(tx *store.Tx) error {
		g, err := tx.GameByTag("spring-again")
		if err != nil {
			return err
		}
		return tx.SetGameOptions(g.ID, []byte("{}"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if reply, err = f.j.RunCommand(ctx, "", Command{Verb: "LIST"}); err != nil || !strings.Contains(reply, "spring-again     running  sprint     3/4 players") {
		t.Errorf("LIST (%v) of a game imported with no seats stored:\n%s", err, reply)
	}
}

// roboRallyArchive is a RoboRally game's .rja archive on either path, as export and
// HISTORY REPLAY make it (archive.RecordOf, archive.Of).
func (j *Judge) roboRallyArchive(tx *store.Tx, g store.Game) (rja.Archive, error) {
	rec, err := archive.RecordOf(tx, g.ID)
	if err != nil {
		return rja.Archive{}, err
	}
	games := j.Games
	if g.Kind == "" { // the older path's game, in a judge that may host no RoboRally
		games = game.Catalog{roborally.Kind{}}
	}
	a, err := archive.Of(rec, games)
	if err != nil {
		return rja.Archive{}, err
	}
	ra, ok := a.(*rja.Archive)
	if !ok {
		return rja.Archive{}, fmt.Errorf("game %s plays %s, which has no .rja archive", g.Tag, g.Kind)
	}
	return *ra, nil
}
