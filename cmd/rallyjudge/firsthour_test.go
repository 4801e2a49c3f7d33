package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/judge"
)

// The first hour without dead ends (issue 22 item 4): what a newcomer meets on the
// command line.

// rallyjudge init writes a commented config that the judge loads, that the game
// master's commands take, and that is never overwritten without --force.
func TestInitWritesAConfigTheJudgeLoads(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "rallyjudge.yaml")
	db := filepath.Join(dir, "games.db")
	var out, errb bytes.Buffer
	if code := run([]string{"init", "-o", cfgPath, "--db", db, "--address", "robo@example.org"}, &out, &errb); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errb.String())
	}
	c, err := judge.LoadConfig(cfgPath)
	if err != nil {
		t.Fatalf("the config init wrote does not load: %v", err)
	}
	if c.Database != db || c.JudgeAddress != "robo@example.org" {
		t.Errorf("config: database %q, judge_address %q", c.Database, c.JudgeAddress)
	}
	b, _ := os.ReadFile(cfgPath)
	if n := strings.Count(string(b), "#"); n < 10 {
		t.Errorf("the config has %d comments; want every part explained:\n%s", n, b)
	}
	out.Reset()
	if code := run([]string{"game", "create", "--config", cfgPath, "--game", "spring", "--course", "sprint"}, &out, &errb); code != 0 {
		t.Fatalf("game create --config: exit %d: %s", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"init", "-o", cfgPath}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "--force") {
		t.Errorf("init over an existing file: exit %d, %q; want exit 1 naming --force", code, errb.String())
	}
	if code := run([]string{"init", "-o", cfgPath, "--force"}, &out, &errb); code != 0 {
		t.Errorf("init --force: exit %d", code)
	}
}

// Without a config, rallyjudge game says what to give, and points at init.
func TestGameWithoutConfigPointsAtInit(t *testing.T) {
	t.Setenv("RALLYJUDGE_CONFIG", "")
	if _, err := os.Stat(systemConfig); err == nil {
		t.Skip(systemConfig + " exists here")
	}
	var out, errb bytes.Buffer
	if code := run([]string{"game", "list"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--db FILE and --address") || !strings.Contains(errb.String(), "rallyjudge init") {
		t.Errorf("game list with no config: exit %d, %q", code, errb.String())
	}
}

// Every subcommand's --help describes its flags: each flag it takes is named with what it
// does (the bug: check --help was two usage lines).
func TestHelpDescribesFlags(t *testing.T) {
	for _, tc := range []struct {
		cmd   []string
		flags []string
	}{
		{[]string{"check"}, []string{"-state", "-db", "-config", "-game", "-robot", "-mail", "the sender's robot"}},
		{[]string{"render"}, []string{"-o", "-cell", "-state", "-demo-turn", "-robots", "-turn", "-seed", "-archive", "square size in pixels"}},
		{[]string{"init"}, []string{"-o", "-db", "-address", "-force"}},
		{[]string{"game"}, []string{"--db FILE", "--address ADDR", "--config FILE"}},
		{[]string{"board"}, []string{"board list", "takes no flags"}},
		{[]string{"demo"}, []string{"-save-mail", "-options", "-rules"}},
		{[]string{"export"}, []string{"-o", "--db", "--config"}},
	} {
		var out, errb bytes.Buffer
		code := run(append(tc.cmd, "--help"), &out, &errb)
		for _, f := range tc.flags {
			if !strings.Contains(out.String(), f) {
				t.Errorf("rallyjudge %s --help (exit %d) does not describe %q:\n%s", tc.cmd[0], code, f, out.String())
			}
		}
		if strings.Contains(out.String(), "unknown") {
			t.Errorf("rallyjudge %s --help answers as a mistake:\n%s", tc.cmd[0], out.String())
		}
	}
}

// A game, course or robot that does not exist is answered with the near ones, in the
// program's words (the bug: `game "crsh": store: game "crsh": not found`).
func TestUnknownNamesListNearMatches(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "j.db")
	var out, errb bytes.Buffer
	gm := func(args ...string) (int, string) {
		out.Reset()
		errb.Reset()
		code := run(append(args, "--db", db, "--address", "robo@example.org"), &out, &errb)
		return code, errb.String()
	}
	if code, e := gm("game", "create", "--game", "crash", "--course", "sprint"); code != 0 {
		t.Fatalf("create: %s", e)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"game", "status", "--game", "crsh"}, `there is no game "crsh" here. Did you mean crash?`},
		{[]string{"game", "status", "--game", "winter"}, `The games here are: crash.`},
		{[]string{"export", "crsh"}, `rallyjudge export: there is no game "crsh" here; did you mean crash?`},
		{[]string{"check", "-", "--game", "crsh"}, `rallyjudge check: there is no game "crsh" here; did you mean crash?`},
		{[]string{"render", "sprnt"}, `did you mean sprint?`},
		{[]string{"game", "create", "--game", "x2", "--course", "sprnt"}, `Did you mean sprint?`},
	} {
		var code int
		var e string
		switch tc.args[0] {
		case "game":
			code, e = gm(tc.args...)
		case "check":
			old := os.Stdin
			f, _ := os.Open(writeSheet(t, "s.txt", "robot Zoe\nP490\n"))
			os.Stdin = f
			out.Reset()
			errb.Reset()
			code, e = run(append(tc.args, "--db", db), &out, &errb), errb.String()
			os.Stdin = old
			f.Close()
		case "export":
			out.Reset()
			errb.Reset()
			code, e = run(append(tc.args, "--db", db), &out, &errb), errb.String()
		default:
			out.Reset()
			errb.Reset()
			code, e = run(tc.args, &out, &errb), errb.String()
		}
		if code == 0 || !strings.Contains(e, tc.want) || strings.Contains(e, "store:") || strings.Contains(e, "not found") {
			t.Errorf("rallyjudge %s: exit %d, %q; want %q", strings.Join(tc.args, " "), code, e, tc.want)
		}
	}
}

// check --mail reads within the judge's own limit (the default 256 KiB, or the config's),
// tells a mail's real size, and shows each command with its arguments.
func TestCheckMailLimitsAndCommands(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.eml")
	body := "From: a@example.test\r\nSubject: x\r\n\r\n" + strings.Repeat("a", 700<<10) + "\r\n"
	if err := os.WriteFile(big, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run([]string{"check", "--mail", big}, &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), fmt.Sprintf("(%d bytes)", len(body))) || !strings.Contains(errb.String(), "256 KiB") {
		t.Errorf("a 700 KiB mail: exit %d, %q; want its real size and the judge's 256 KiB", code, errb.String())
	}
	cmdMail := writeSheet(t, "cmd.eml", "From: a@example.test\r\nSubject: hi\r\n\r\nJOIN crash Zapper\r\nLIST\r\n")
	out.Reset()
	errb.Reset()
	run([]string{"check", "--mail", cmdMail}, &out, &errb)
	if !strings.Contains(out.String(), "line 1: JOIN crash Zapper") {
		t.Errorf("check --mail of a command mail:\n%s\nwant the command with its arguments", out.String())
	}
}
