package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/judge"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
)

// TestCheckMail reads raw mails as the judge does: a flowed Thunderbird reply whose long
// comment line was soft-wrapped, above an Outlook-style unprefixed original carrying the
// welcome's placeholder secret. The sheet found is printed with its lines in the mail;
// exit status 0 valid, 1 not accepted, 2 unreadable.
func TestCheckMail(t *testing.T) {
	c, err := adjudicator.LoadCourse("sprint")
	if err != nil {
		t.Skipf("shipped course: %v", err)
	}
	setup, err := adjudicator.NewSetup(c, adjudicator.PostalRules(), 42, adjudicator.DealtOptions(adjudicator.DeckBoth))
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := adjudicator.NewGame(setup, []string{"Zoombot", "Fred"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(savedTurn{Course: "sprint", Seed: 42, State: st})
	state := writeSheet(t, "turn.json", string(b))
	hand := st.Robots[0].Hand
	var cards []string
	for i, p := range hand[:5] {
		cards = append(cards, itoa(i+1)+": P"+itoa(p))
	}
	eml := func(cardLines []string) string {
		return "From: Zoe <zoe@example.test>\r\nTo: judge@example.test\r\nSubject: Re: [RR spring] Welcome\r\n" +
			"Message-ID: <x@example.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8; format=flowed\r\n\r\n" +
			"Hello judge,\r\n\r\n#orders\r\ngame spring\r\nrobot Zoombot\r\nturn 1\r\nsecret hunter2-hunter2\r\n" +
			"# Write a card of your hand after each free register's number, e.g. \r\n\"1: P490\".\r\n" +
			strings.Join(cardLines, "\r\n") + "\r\n#end\r\n\r\n-----Original Message-----\r\nFrom: judge@example.test\r\n" +
			"Sent: Monday\r\n\r\n#orders\r\nsecret YOUR-SECRET\r\n1: \r\n#end\r\n"
	}
	good := writeSheet(t, "good.eml", eml(cards))
	bad := writeSheet(t, "bad.eml", eml(append(cards[:4:4], "5: P999", "power dwn")))
	junk := writeSheet(t, "junk.eml", "")
	for _, tc := range []struct {
		name string
		args []string
		code int
		out  []string
	}{
		{"read only", []string{"--mail", good}, 0, []string{"format=flowed", "     8 | # Write a card of your hand after each free register's number, e.g. \"1: P490\".",
			"     9 | 1: P" + itoa(hand[0]), "     7 | secret (secret)", `"secret": "(hidden)"`}},
		{"valid with state", []string{"--mail", good, "--state", state}, 0, []string{"valid", "Forecast for Zoombot"}},
		{"errors on the mail's lines, sorted, quoted", []string{"--mail", bad, "--state", state}, 1, []string{
			"line 13, column 4: error: P999", "line 14, column 1: error:", "| power dwn", "| 5: P999", "not accepted"}},
		{"syntax errors alone", []string{"--mail", bad}, 1, []string{"line 14, column 1: error:"}},
		{"unreadable", []string{"--mail", junk}, 2, nil},
		{"missing", []string{"--mail", filepath.Join(t.TempDir(), "none.eml")}, 2, nil},
		{"sheet and mail", []string{"--mail", good, good}, 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := cmdCheck(tc.args, &out, &errb)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out.String(), errb.String())
			}
			for _, s := range tc.out {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, out.String())
				}
			}
			if strings.Contains(out.String()+errb.String(), "hunter2-hunter2") || strings.Contains(out.String(), "YOUR-SECRET") {
				t.Error("a secret or the quoted original was printed")
			}
		})
	}
	// the error on P999 (line 13) comes before the one on line 14
	var out bytes.Buffer
	cmdCheck([]string{"--mail", bad, "--state", state}, &out, &bytes.Buffer{})
	_, checked, _ := strings.Cut(out.String(), "checked against")
	if i, j := strings.Index(checked, "line 13"), strings.Index(checked, "line 14"); i < 0 || j < 0 || i > j {
		t.Errorf("errors not sorted by line:\n%s", out.String())
	}
	_ = os.Remove(junk)
}

// TestCheckAgainstTheJudgesDatabase: docs/gamemasters.md, "When a player asks why a mail
// was refused", told the game master to check the player's mail "--state turn.json"
// but nowhere how to get that file from the game. check --db (or --config) checks a
// sheet or a mail against the game's turn being played, as the judge checked it.
func TestCheckAgainstTheJudgesDatabase(t *testing.T) {
	db := judgeDB(t, 2) // game cli, turn 3
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	j, _ := judge.New(st, "judge@example.test", nil)
	pos, turn, err := j.TurnToCheck(context.Background(), "cli")
	st.Close()
	if err != nil || turn != 3 {
		t.Fatalf("TurnToCheck: turn %d, %v", turn, err)
	}
	state, _, ok := roborally.Engine(pos)
	if !ok {
		t.Fatal("game cli is not RoboRally")
	}
	hand := state.Robots[0].Hand
	dir := t.TempDir()
	sheet := filepath.Join(dir, "sheet.txt")
	os.WriteFile(sheet, fmt.Appendf(nil, "robot Twonky\nturn 3\nP%d P%d P%d P%d P%d\n", hand[0], hand[1], hand[2], hand[3], hand[4]), 0o600)
	code, out, errs := runCmd("check", sheet, "--db", db, "--game", "cli")
	if code != 0 || !strings.Contains(out, "valid") || !strings.Contains(out, "Forecast for Twonky, turn 3") {
		t.Fatalf("a sheet from Twonky's hand: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs = runCmd("check", sheet, "--db", db); code != 2 || !strings.Contains(errs, "give --game TAG") {
		t.Fatalf("a sheet naming no game, no --game: exit %d %s", code, errs)
	}
	eml := filepath.Join(dir, "m.eml")
	os.WriteFile(eml, []byte("From: a@example.test\r\nTo: judge@example.test\r\nSubject: [RR cli] orders\r\n\r\nrobot Twonky\r\nsecret x\r\nP495 P"+fmt.Sprint(hand[1])+" P"+fmt.Sprint(hand[2])+" P"+fmt.Sprint(hand[3])+" P"+fmt.Sprint(hand[4])+"\r\n"), 0o600)
	code, out, errs = runCmd("check", "--mail", eml, "--db", db)
	if code != 1 || !strings.Contains(out, "checked against game cli in "+db+" (turn 3), robot Twonky, turn 3:") || !strings.Contains(out, "line 3, column 1: error: P495 is not in your hand") {
		t.Fatalf("the mail with a card not in the hand: exit %d\n%s%s", code, out, errs)
	}
	if code, _, _ = runCmd("check", "--mail", eml, "--db", db, "--state", sheet); code != 2 {
		t.Fatalf("--db with --state: exit %d, want 2", code)
	}
}
