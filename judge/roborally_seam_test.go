package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/archive"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
)

// RoboRally, played as roborally.Kind behind the seam (hosted.go), is the game its
// players by mail have always played: a game gets sheets by mail, one robot away and
// missing every third turn (the game's absence setting: the autopilot,
// game.Policies) and taken out by the game master at turn 5 (game.Leaver), another
// sending its orders over two mails (a program, then standing orders alone:
// game.Folder) or standing orders alone, then asking to WAIT (game.Holder), and after
// every turn its state is the transcript's (recorded when the judge's own RoboRally
// path played the same game to the same bytes).
func TestRoboRallyThroughTheSeamIsTheSameGame(t *testing.T) {
	for _, tc := range []struct {
		name     string
		kv       map[string]string
		standing string
	}{
		{"postal", map[string]string{"course": "sprint"}, "if damage > 1 power down"},
		{"2023", map[string]string{"course": "docking-run", "rules": "2023"}, "if damage > 1 shut down"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTranscript(t)
			f := newJudgeFixture(t)
			k := roborally.Kind{}
			f.j.Games = append(game.Catalog{k}, f.j.Games...)
			players := []string{"Twonky", "Zoombot", "Hulk"}
			dl := store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}
			cfg, err := k.Configure(tc.kv)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := cfg.Encode()
			f.createGame(GameSpec{Tag: "spring", Kind: "roborally", Config: raw, Seed: 42, GMEmail: "gm@example.test", Deadline: dl}, players...)
			sec := f.secrets
			// Hulk is away throughout, and the game plays an absent player's missed
			// program by the autopilot (game.Policies)
			if _, text := f.send("gm@example.test", "[RR spring] s", "secret "+sec[""]+"\nSET absence autopilot\n"); !strings.Contains(text, "absence") {
				t.Fatalf("SET absence:\n%s", text)
			}
			if _, text := f.send("hulk@example.test", "[RR spring] away", "secret "+sec["Hulk"]+"\nABSENT 2026-03-01 2026-03-31\n"); !strings.Contains(text, "Noted") {
				t.Fatalf("ABSENT:\n%s", text)
			}
			same := func(when string) {
				t.Helper()
				g, st := f.state()
				b, _ := json.Marshal(st)
				tr.same("the game "+when, fmt.Sprintf("turn %d, %s; state %s", g.CurrentTurn, g.Status, digest(b)))
			}
			turns := 0
			for turn := 1; turn <= 8; turn++ {
				g, st := f.state()
				if g.Status != store.GameRunning {
					break
				}
				same(fmt.Sprintf("before turn %d", turn))
				send := func(r adjudicator.Robot, sheet string) {
					t.Helper()
					addr := strings.ToLower(r.Name) + "@example.test"
					if _, text := f.send(addr, "[RR spring] orders", "game spring\n"+sheet); !strings.Contains(text, "accepted") || strings.Contains(text, "NOT accepted") {
						t.Fatalf("turn %d, %s's sheet:\n%s\n%s", turn, r.Name, sheet, text)
					}
				}
				if turn == 5 { // Hulk's player is taken out: the robot leaves the race (game.Leaver)
					if _, text := f.send("gm@example.test", "[RR spring] kick", "secret "+sec[""]+"\nKICK Hulk\n"); !strings.Contains(text, "Hulk was removed") {
						t.Fatalf("KICK:\n%s", text)
					}
				}
				if turn == 7 { // Zoombot holds the turn to its deadline (game.Holder)
					if _, text := f.send("zoombot@example.test", "[RR spring] wait", "secret "+sec["Zoombot"]+"\nWAIT\n"); !strings.Contains(text, "waits for its deadline") {
						t.Fatalf("WAIT:\n%s", text)
					}
				}
				for _, r := range st.Robots {
					if !roborally.NeedsProgram(r) || r.Name == "Hulk" && (turn%3 == 0 || turn >= 5) {
						continue
					}
					standingOnly := fmt.Sprintf("robot %s\nturn %d\nsecret %s\n%s\n", r.Name, st.Turn, sec[r.Name], tc.standing)
					if r.Name == "Zoombot" && turn == 3 { // standing orders and no program: missed, the orders kept
						send(r, standingOnly)
						continue
					}
					extra := ""
					if turn == 1 && r.Name == "Twonky" {
						extra = "if damage > 2 power down\n"
					}
					sheet := f.sheet(r.Name, extra)
					if st.Robots[0].Mat != nil { // the 2023 rules: cards by kind, "-" for a face-down Haywire
						prog := roborally.RandomProgram(f.j.mustSetup(t, "spring"), st, st.Robot(r.Name), 5, turn)
						sheet = fmt.Sprintf("robot %s\nturn %d\nsecret %s\n%s\n%s", r.Name, st.Turn, sec[r.Name], roborally.OwnProgramText(prog), extra)
					}
					if r.Name == "Zoombot" && turn == 2 { // the program, then standing orders alone
						send(r, sheet)
						send(r, standingOnly)
						continue
					}
					if r.Name == "Zoombot" && turn == 4 { // standing orders alone, then the program
						send(r, standingOnly)
					}
					send(r, sheet)
				}
				if now, _ := f.state(); turn == 7 && now.CurrentTurn != g.CurrentTurn {
					t.Fatalf("turn %d was played though Zoombot asked to WAIT: the game is at turn %d", g.CurrentTurn, now.CurrentTurn)
				}
				if turn%3 == 0 || turn == 7 { // a missing program, a WAIT: the deadline plays both
					f.now = f.now.Add(25 * time.Hour)
					if _, err := f.j.Tick(context.Background()); err != nil {
						t.Fatal(err)
					}
				}
				turns++
			}
			same(fmt.Sprintf("after %d turns", turns))
			if turns < 3 {
				t.Fatalf("only %d turns played", turns)
			}
			// the game replays bit for bit from its archive (the folds, the missed
			// turns and Hulk's leaving are its recorded moves)
			var h archive.Hosted
			if err := f.j.Store.View(context.Background(), func(tx *store.Tx) (err error) {
				g, err := tx.GameByTag("spring")
				if err != nil {
					return err
				}
				h, err = archive.HostedFromStore(tx, g.ID)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if err := archive.ReplayHosted(&h, f.j.Games, nil); err != nil {
				t.Fatalf("the game does not replay from its archive: %v", err)
			}
			reps := f.mailsTo("twonky@example.test", "report")
			if len(reps) == 0 {
				t.Fatal("no report")
			}
			for _, m := range reps {
				mustContain(t, "a report", textOf(t, m), "ROBOTS", "YOUR HAND FOR TURN")
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// In a game with a mailing list, RoboRally through the seam mails the public report to
// the list and each player its own part alone (game.Parts), as its own path does.
func TestRoboRallyThroughTheSeamWithAList(t *testing.T) {
	f := newJudgeFixture(t)
	k := roborally.Kind{}
	f.j.Games = append(game.Catalog{k}, f.j.Games...)
	cfg, err := k.Configure(map[string]string{"course": "sprint"})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := cfg.Encode()
	f.createGame(GameSpec{Tag: "seam", Kind: "roborally", Config: raw, Seed: 42, GMEmail: "gm@example.test", List: "list@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}, "Twonky", "Zoombot")
	f.now = f.now.Add(25 * time.Hour) // the deadline: every robot's program missed
	if _, err := f.j.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	list := f.mailsTo("list@example.test", "report")
	if len(list) != 1 {
		t.Fatalf("the list has %d reports, want 1", len(list))
	}
	mustContain(t, "the list's report", textOf(t, list[0]), "ROBOTS", "Twonky sent no orders")
	mine := f.mailsTo("twonky@example.test", "report")
	if len(mine) != 1 {
		t.Fatalf("Twonky has %d reports, want 1", len(mine))
	}
	text := textOf(t, mine[0])
	mustContain(t, "Twonky's part", text, "This is your private part", "YOUR HAND FOR TURN 2")
	if strings.Contains(text, "ROBOTS") || strings.Contains(text, "Zoombot sent no orders") {
		t.Errorf("Twonky's part repeats the list's report:\n%s", text)
	}
}
