package judge

import (
	"bytes"
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

// RoboRally behind the game seam (roborally.Kind), played by mail through the judge's
// generic path (hosted.go), is the same game as on the judge's own RoboRally path: two
// games of the same course, seed and players get the same sheets by mail, one robot
// away and missing every third turn (the game's absence setting: the autopilot,
// game.Policies) and taken out by the game master at turn 5 (game.Leaver),
// another sending its orders over two mails (a program, then standing orders alone:
// game.Folder) or standing orders alone, then asking to WAIT (game.Holder), and after
// every turn their states are the same bytes.
func TestRoboRallyThroughTheSeamIsTheSameGame(t *testing.T) {
	for _, tc := range []struct {
		name     string
		course   string
		rules    *adjudicator.Rules
		kv       map[string]string
		standing string
	}{
		{"postal", "sprint", nil, map[string]string{"course": "sprint"}, "if damage > 1 power down"},
		{"2023", "docking-run", ptr(adjudicator.Rules2023()), map[string]string{"course": "docking-run", "rules": "2023"}, "if damage > 1 shut down"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newJudgeFixture(t)
			k := roborally.Kind{Course: f.j.Course}
			f.j.Games = append(game.Catalog{k}, f.j.Games...)
			players := []string{"Twonky", "Zoombot", "Hulk"}
			dl := store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}
			games := f.j.Games
			olderPath(f) // game spring on the judge's older path
			f.createGame(GameSpec{Tag: "spring", Course: tc.course, Rules: tc.rules, Seed: 42, GMEmail: "gm@example.test", Deadline: dl}, players...)
			f.j.Games = games
			own := f.secrets
			cfg, err := k.Configure(tc.kv)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := cfg.Encode()
			f.createGame(GameSpec{Tag: "seam", Kind: "roborally", Config: raw, Seed: 42, GMEmail: "gm@example.test", Deadline: dl}, players...)
			seam := f.secrets
			// Hulk is away throughout, and both games play an absent player's missed
			// program by the autopilot (game.Policies)
			for tag, sec := range map[string][2]string{"spring": {own[""], own["Hulk"]}, "seam": {seam[""], seam["Hulk"]}} {
				if _, text := f.send("gm@example.test", "[RR "+tag+"] s", "secret "+sec[0]+"\nSET absence autopilot\n"); !strings.Contains(text, "absence") {
					t.Fatalf("SET absence in game %s:\n%s", tag, text)
				}
				if _, text := f.send("hulk@example.test", "[RR "+tag+"] away", "secret "+sec[1]+"\nABSENT 2026-03-01 2026-03-31\n"); !strings.Contains(text, "Noted") {
					t.Fatalf("ABSENT in game %s:\n%s", tag, text)
				}
			}

			seamState := func() (store.Game, []byte) {
				var g store.Game
				var b []byte
				err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
					var err error
					if g, err = tx.GameByTag("seam"); err != nil {
						return err
					}
					hk, err := f.j.hostedKind(g)
					if err != nil || hk == nil {
						return fmt.Errorf("game seam is not hosted: %v", err)
					}
					h, err := f.j.hostedState(tx, g, hk)
					if err != nil {
						return err
					}
					pb, err := h.pos.Encode()
					if err != nil {
						return err
					}
					var p struct {
						State *adjudicator.State `json:"state"`
					}
					if err := json.Unmarshal(pb, &p); err != nil {
						return err
					}
					b, err = json.Marshal(p.State)
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				return g, b
			}
			turns := 0
			for turn := 1; turn <= 8; turn++ {
				g, st := f.state()
				if g.Status != store.GameRunning {
					break
				}
				want, _ := json.Marshal(st)
				if sg, got := seamState(); sg.CurrentTurn != g.CurrentTurn || !bytes.Equal(got, want) {
					t.Fatalf("before turn %d: the seam's game (turn %d) is not the judge's (turn %d)", turn, sg.CurrentTurn, g.CurrentTurn)
				}
				both := func(r adjudicator.Robot, sheet string) {
					t.Helper()
					addr := strings.ToLower(r.Name) + "@example.test"
					if _, text := f.send(addr, "[RR spring] orders", sheet); !strings.Contains(text, "accepted") || strings.Contains(text, "NOT accepted") {
						t.Fatalf("turn %d, %s's sheet on the judge's path:\n%s", turn, r.Name, text)
					}
					seamSheet := "game seam\n" + strings.Replace(sheet, "secret "+own[r.Name], "secret "+seam[r.Name], 1)
					if _, text := f.send(addr, "[RR seam] orders", seamSheet); !strings.Contains(text, "accepted") || strings.Contains(text, "NOT accepted") {
						t.Fatalf("turn %d, %s's sheet through the seam:\n%s\n%s", turn, r.Name, seamSheet, text)
					}
				}
				if turn == 5 { // Hulk's player is taken out: the robot leaves the race (game.Leaver)
					for tag, sec := range map[string]string{"spring": own[""], "seam": seam[""]} {
						if _, text := f.send("gm@example.test", "[RR "+tag+"] kick", "secret "+sec+"\nKICK Hulk\n"); !strings.Contains(text, "Hulk was removed") {
							t.Fatalf("KICK in game %s:\n%s", tag, text)
						}
					}
				}
				if turn == 7 { // Zoombot holds the turn to its deadline (game.Holder)
					for tag, sec := range map[string]string{"spring": own["Zoombot"], "seam": seam["Zoombot"]} {
						if _, text := f.send("zoombot@example.test", "[RR "+tag+"] wait", "secret "+sec+"\nWAIT\n"); !strings.Contains(text, "waits for its deadline") {
							t.Fatalf("WAIT in game %s:\n%s", tag, text)
						}
					}
				}
				for _, r := range st.Robots {
					if !roborally.NeedsProgram(r) || r.Name == "Hulk" && (turn%3 == 0 || turn >= 5) {
						continue
					}
					standingOnly := fmt.Sprintf("robot %s\nturn %d\nsecret %s\n%s\n", r.Name, st.Turn, own[r.Name], tc.standing)
					if r.Name == "Zoombot" && turn == 3 { // standing orders and no program: missed, the orders kept
						both(r, standingOnly)
						continue
					}
					extra := ""
					if turn == 1 && r.Name == "Twonky" {
						extra = "if damage > 2 power down\n"
					}
					f.secrets = own // the sheet helpers write the judge's game's secret
					sheet := f.sheet(r.Name, extra)
					if st.Robots[0].Mat != nil { // the 2023 rules: cards by kind, "-" for a face-down Haywire
						prog := roborally.RandomProgram(f.j.mustSetup(t, "spring"), st, st.Robot(r.Name), 5, turn)
						sheet = fmt.Sprintf("robot %s\nturn %d\nsecret %s\n%s\n%s", r.Name, st.Turn, own[r.Name], roborally.OwnProgramText(prog), extra)
					}
					if r.Name == "Zoombot" && turn == 2 { // the program, then standing orders alone
						both(r, sheet)
						both(r, standingOnly)
						continue
					}
					if r.Name == "Zoombot" && turn == 4 { // standing orders alone, then the program
						both(r, standingOnly)
					}
					both(r, sheet)
				}
				if sg, _ := seamState(); turn == 7 && sg.CurrentTurn != g.CurrentTurn {
					lg, _ := f.state()
					t.Fatalf("turn 7 was played though Zoombot asked to WAIT: seam at %d, the judge's at %d", sg.CurrentTurn, lg.CurrentTurn)
				}
				if turn%3 == 0 || turn == 7 { // a missing program, a WAIT: the deadline plays both
					f.now = f.now.Add(25 * time.Hour)
					if _, err := f.j.Tick(context.Background()); err != nil {
						t.Fatal(err)
					}
				}
				turns++
			}
			g, st := f.state()
			want, _ := json.Marshal(st)
			if sg, got := seamState(); sg.CurrentTurn != g.CurrentTurn || !bytes.Equal(got, want) {
				t.Fatalf("after %d turns: the seam's game (turn %d) is not the judge's (turn %d)", turns, sg.CurrentTurn, g.CurrentTurn)
			}
			if turns < 3 {
				t.Fatalf("only %d turns played", turns)
			}
			// the seam's game replays bit for bit from its archive (the folds, the missed
			// turns and Hulk's leaving are its recorded moves)
			var h archive.Hosted
			if err := f.j.Store.View(context.Background(), func(tx *store.Tx) (err error) {
				sg, err := tx.GameByTag("seam")
				if err != nil {
					return err
				}
				h, err = archive.HostedFromStore(tx, sg.ID)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if err := archive.ReplayHosted(&h, f.j.Games, nil); err != nil {
				t.Fatalf("the seam's game does not replay from its archive: %v", err)
			}
			reps := f.mailsTo("twonky@example.test", "report")
			seamReports := 0
			for _, m := range reps {
				if strings.Contains(m.Subject, "[RR seam]") {
					seamReports++
					mustContain(t, "a report through the seam", textOf(t, m), "ROBOTS", "YOUR HAND FOR TURN")
				}
			}
			if seamReports == 0 {
				t.Fatal("no report of the seam's game")
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// In a game with a mailing list, RoboRally through the seam mails the public report to
// the list and each player its own part alone (game.Parts), as its own path does.
func TestRoboRallyThroughTheSeamWithAList(t *testing.T) {
	f := newJudgeFixture(t)
	k := roborally.Kind{Course: f.j.Course}
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
