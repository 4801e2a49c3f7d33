package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/judge"
)

// Crash by Crash from the command line: a game played by the demo's bots, exported,
// replayed bit for bit, written as a replay page, and a scenario file resolved.
func TestCrashByCrashFromTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "cbc.db")
	var out strings.Builder
	res, err := judge.RunHostedDemo(context.Background(), judge.HostedDemoOptions{Game: "crash-by-crash", Seed: 2, Turns: 30, DB: db, Out: &out})
	if err != nil {
		t.Fatalf("demo: %v\n%s", err, out.String())
	}
	// the demo stops after 30 turns, or earlier when the bots end the game (the
	// autopilot can take a side's last car off the board)
	if res.Turns < 13 || res.Turns > 30 || (res.Turns < 30 && !res.Over) || res.Reports < 2*res.Turns {
		t.Fatalf("demo: %+v", res)
	}
	rja := filepath.Join(dir, "cbc.rja")
	if code, _, errs := runCmd("export", "demo", "--db", db, "-o", rja); code != 0 {
		t.Fatalf("export: %d %s", code, errs)
	}
	b, _ := os.ReadFile(rja)
	if !strings.HasPrefix(string(b), "rallyjudge-game-archive 1\n") || !strings.Contains(string(b), `"kind":"crash-by-crash"`) {
		t.Fatalf("the export is not a Crash by Crash archive:\n%.300s", b)
	}
	code, stdout, errs := runCmd("replay", rja)
	if code != 0 || !strings.Contains(stdout, fmt.Sprintf("%d turns replay exactly", res.Turns)) {
		t.Fatalf("replay: %d %s %s", code, stdout, errs)
	}
	code, stdout, errs = runCmd("replay", rja, "--turn", "12")
	if code != 0 || !strings.Contains(stdout, "After turn 12") || !strings.Contains(stdout, "scoring chart") {
		t.Fatalf("replay --turn 12: %d %s %s", code, stdout, errs)
	}
	page := filepath.Join(dir, "cbc.html")
	if code, _, errs := runCmd("replay", rja, "--html", page); code != 0 {
		t.Fatalf("replay --html: %d %s", code, errs)
	}
	if h, _ := os.ReadFile(page); !strings.Contains(string(h), "Crash by Crash: game demo") || strings.Count(string(h), `class="turn"`) != res.Turns+1 {
		t.Errorf("the replay page lacks its title or its %d steps", res.Turns+1)
	}
	// a move changed in the archive: replay names the turn
	bad := strings.Replace(string(b), `"turn":5,`, `"turn":5,"moves":[{"seat":0,"move":{"data":{"Actions":[{"Kind":5}]},"text":"pass"}}],"x":`, 1)
	os.WriteFile(rja, []byte(bad), 0o644)
	if code, _, errs := runCmd("replay", rja); code == 0 || !strings.Contains(errs, "turn 5") {
		t.Errorf("a tampered archive replayed: %d %s", code, errs)
	}

	// scenario files of the game
	scn := filepath.Join(dir, "s.txt")
	text, err := os.ReadFile("../../crashbycrash/testdata/scenarios/card_bell_charms_moves_bell.txt")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(scn, text, 0o644)
	if code, stdout, errs := runCmd("resolve", "--game", "crash-by-crash", scn); code != 0 || !strings.Contains(stdout, `"rule"`) {
		t.Errorf("resolve of a passing scenario: %d %s %s", code, stdout, errs)
	}
	os.WriteFile(scn, []byte(strings.Replace(string(text), "bell E2", "bell E3", 1)), 0o644)
	if code, _, _ := runCmd("resolve", "--game", "crash-by-crash", scn); code != 1 {
		t.Errorf("resolve of a failing scenario: exit %d, want 1", code)
	}
	os.WriteFile(scn, []byte("nonsense: here\n"), 0o644)
	if code, _, _ := runCmd("resolve", "--game", "crash-by-crash", scn); code != 2 {
		t.Errorf("resolve of an unreadable scenario: exit %d, want 2", code)
	}
	if code, _, errs := runCmd("resolve", "--game", "chess", scn); code != 2 || !strings.Contains(errs, "crash-by-crash") {
		t.Errorf("resolve --game chess: %d %s", code, errs)
	}
}

func TestGameCreateCrashByCrash(t *testing.T) {
	db := filepath.Join(t.TempDir(), "j.db")
	code, out, errs := runCmd("game", "create", "--db", db, "--address", "judge@example.test", "--game", "fair", "--kind", "crash-by-crash", "--set", "players=4")
	if code != 0 || !strings.Contains(out, "Crash by Crash") || !strings.Contains(out, "team game") {
		t.Fatalf("game create --kind crash-by-crash: %d\n%s\n%s", code, out, errs)
	}
	code, _, errs = runCmd("game", "create", "--db", db, "--address", "judge@example.test", "--game", "odd", "--kind", "crash-by-crash", "--set", "players=3")
	if code == 0 || !strings.Contains(errs+"", "2, or 4") {
		t.Errorf("players=3 accepted: %d %s", code, errs)
	}
}
