package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/judge"
	"github.com/rallyjudge/rallyjudge/roborally/rja"
	"github.com/rallyjudge/rallyjudge/store"
)

// judgeDB makes a database holding game "cli" with turns played by the deadline
// (random programs for every robot).
func judgeDB(t *testing.T, turns int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "judge.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	j, err := judge.New(st, "judge@example.test", nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	j.Now = func() time.Time { return now }
	j.NewSeed = func() int64 { return now.Unix() }
	ctx := context.Background()
	if _, err := j.CreateGame(ctx, judge.GameSpec{Tag: "cli", Settings: map[string]string{"course": "sprint", "missed": "random"}, Seed: 9,
		Players: []judge.PlayerSpec{{Robot: "Twonky", Email: "a@example.test"}, {Robot: "Zoombot", Email: "b@example.test"}}}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < turns; i++ {
		if ok, err := j.ResolveNow(ctx, 1); err != nil || !ok {
			t.Fatalf("turn %d: %v %v", i+1, ok, err)
		}
	}
	return path
}

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestExportReplayImport(t *testing.T) {
	db := judgeDB(t, 6)
	dir := t.TempDir()
	rjaPath := filepath.Join(dir, "cli.rja")

	code, _, errs := runCmd("export", "cli", "--db", db, "-o", rjaPath)
	if code != 0 {
		t.Fatalf("export: %d %s", code, errs)
	}
	code, out, errs := runCmd("export", "1", "--db", db) // by number, to standard output
	if code != 0 || !strings.HasPrefix(out, "rallyjudge-archive 1\n") {
		t.Fatalf("export to stdout: %d %s", code, errs)
	}
	if b, _ := os.ReadFile(rjaPath); !bytes.Equal(b, []byte(out)) {
		t.Fatal("export -o and export to standard output differ")
	}

	code, out, errs = runCmd("replay", rjaPath)
	if code != 0 || !strings.Contains(out, "6 turns replay exactly") {
		t.Fatalf("replay: %d %q %q", code, out, errs)
	}
	code, out, _ = runCmd("replay", rjaPath, "--turn", "3")
	if code != 0 || !strings.Contains(out, "After turn 3") || !strings.Contains(out, "Twonky") || !strings.Contains(out, "Events of turn 3:") || !strings.Contains(out, "R1 move") {
		t.Fatalf("replay --turn 3: %d\n%s", code, out)
	}
	page := filepath.Join(dir, "cli.html")
	code, _, errs = runCmd("replay", "--html", page, rjaPath)
	if fi, err := os.Stat(page); code != 0 || err != nil || fi.Size() < 1000 {
		t.Fatalf("replay --html: %d %s %v", code, errs, err)
	}
	code, _, errs = runCmd("replay", rjaPath, "--progress")
	if code != 0 || !strings.Contains(errs, "replaying [") {
		t.Fatalf("--progress asked for and no bar drawn: %q", errs)
	}
	code, _, errs = runCmd("replay", rjaPath)
	if code != 0 || strings.Contains(errs, "replaying [") {
		t.Fatalf("a bar drawn when not asked for (not a terminal): %q", errs)
	}

	// One card changed (two registers swapped): exit 1, and the turn changed is named
	// (a swap of two cards of one kind changes nothing; the next turn is tried).
	caught := false
	for k := 2; k <= 6 && !caught; k++ {
		for r := 0; r < 2 && !caught; r++ {
			a, err := readRJA(rjaPath)
			if err != nil {
				t.Fatal(err)
			}
			prog := &a.Turns[k].Orders[r].Program
			prog[0], prog[1] = prog[1], prog[0]
			bad := filepath.Join(dir, "tampered.rja")
			var buf bytes.Buffer
			if err := rja.Write(&buf, a); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(bad, buf.Bytes(), 0o644)
			code, _, errs = runCmd("replay", bad)
			if code == 0 {
				continue
			}
			caught = true
			if code != 1 || !strings.Contains(errs, fmt.Sprintf("first difference at turn %d:", k)) {
				t.Fatalf("tampered turn %d: %d %q", k, code, errs)
			}
		}
	}
	if !caught {
		t.Fatal("no tampered program was caught")
	}

	// Fork from turn 2.
	t.Setenv("RALLYJUDGE_CONFIG", "")
	// --player mails a welcome, From the judge's address: without one it is refused (the
	// welcome was From judge@localhost, which no SMTP server takes).
	code, _, errs = runCmd("import", rjaPath, "--db", db, "--from", "2", "--tag", "cli-what-if", "--player", "Twonky=new@example.test")
	if code != 2 || !strings.Contains(errs, "--player mails a welcome") {
		t.Fatalf("import --player without the judge's address: %d %q", code, errs)
	}
	code, out, errs = runCmd("import", rjaPath, "--db", db, "--from", "2", "--tag", "cli-what-if", "--player", "Twonky=new@example.test", "--address", "robo@example.test")
	if code != 0 || !strings.Contains(out, "game cli-what-if: turns 0-2, next turn 3") || !strings.Contains(out, "Zoombot: no player yet") {
		t.Fatalf("import: %d %q %q", code, out, errs)
	}
	welcomeFrom := ""
	if st, err := store.Open(db); err == nil {
		_ = st.View(context.Background(), func(tx *store.Tx) error {
			ms, err := tx.DuePending(time.Now().Add(1000*time.Hour), 1000)
			for _, m := range ms {
				if bytes.Contains(m.Raw, []byte("new@example.test")) && bytes.Contains(m.Raw, []byte("Welcome")) {
					welcomeFrom = string(m.Raw)
				}
			}
			return err
		})
		st.Close()
	}
	if !strings.Contains(welcomeFrom, "From: \"rallyjudge\" <robo@example.test>") {
		t.Errorf("the fork's welcome is not From the judge's address:\n%.600s", welcomeFrom)
	}
	code, _, errs = runCmd("import", rjaPath, "--db", db, "--tag", "cli-what-if")
	if code != 1 || !strings.Contains(errs, "cli-what-if") {
		t.Fatalf("import twice under one tag: %d %q", code, errs)
	}
	code, out, _ = runCmd("export", "cli-what-if", "--db", db)
	if code != 0 || strings.Count(out, "\n") != 2+3 {
		t.Fatalf("export of the fork: %d, %d lines", code, strings.Count(out, "\n"))
	}
}

func TestArchiveCommandsExitCodes(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.rja")
	os.WriteFile(junk, []byte("rallyjudge-archive 1\n{\"seed\": \"x\"}\n"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"export"}, 2, "usage: rallyjudge export"},
		{[]string{"export", "g"}, 2, "usage"},
		{[]string{"export", "g", "--db", filepath.Join(dir, "none.db")}, 1, "none.db"},
		{[]string{"replay"}, 2, "usage: rallyjudge replay"},
		{[]string{"replay", "--turn", "-5", "x.rja"}, 2, "usage"},
		{[]string{"replay", filepath.Join(dir, "missing.rja")}, 1, "missing.rja"},
		{[]string{"replay", junk}, 1, "junk.rja:2:"},
		{[]string{"import", junk}, 2, "usage: rallyjudge import"},
		{[]string{"import", junk, "--db", "x.db", "--player", "Twonky"}, 2, "ROBOT=EMAIL"},
		{[]string{"import", junk, "--db", "x.db"}, 1, "junk.rja:2:"},
	} {
		code, _, errs := runCmd(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d %q, want %d with %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
	// Past the end of the archive.
	db := judgeDB(t, 2)
	rjaPath := filepath.Join(dir, "g.rja")
	if code, _, errs := runCmd("export", "cli", "--db", db, "-o", rjaPath); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := runCmd("replay", rjaPath, "--turn", "3"); code != 1 || !strings.Contains(errs, "ends at turn 2") {
		t.Errorf("--turn past the end: %d %q", code, errs)
	}
}

func TestProgressBar(t *testing.T) {
	var b bytes.Buffer
	p := newProgressBar(&b, 200, true, false)
	for i := 0; i <= 200; i++ {
		p.set(i)
	}
	p.done()
	s := b.String()
	if n := strings.Count(s, "\r"); n != 101 {
		t.Errorf("bar drawn %d times, want 101 (once a percent)", n)
	}
	if !strings.HasSuffix(s, "] 200/200 turns\n") || !strings.Contains(s, "["+strings.Repeat("#", 40)+"]") {
		t.Errorf("bar ends %q", s[max(0, len(s)-80):])
	}
	b.Reset()
	p = newProgressBar(&b, 200, false, false)
	p.set(100)
	p.done()
	if b.Len() != 0 {
		t.Errorf("bar drawn while off: %q", b.String())
	}
}

// TestExportWithConfig: on the server the game master names the serve config, as for
// rallyjudge game and import (docs/gamemasters.md runs every operation with --config);
// export took only --db and answered --config with its usage.
func TestExportWithConfig(t *testing.T) {
	db := judgeDB(t, 2)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "rallyjudge.yaml")
	os.WriteFile(cfg, []byte("database: "+db+"\njudge_address: judge@example.test\nimap:\n  address: 127.0.0.1:1\n  tls: plain\n  username: judge\n  password_env: RJ_X\nsmtp:\n  address: 127.0.0.1:1\n  tls: none\n"), 0o600)
	_, byDB, _ := runCmd("export", "cli", "--db", db)
	code, out, errs := runCmd("export", "cli", "--config", cfg)
	if code != 0 || out != byDB {
		t.Fatalf("export --config: exit %d, same archive as --db: %v\n%s", code, out == byDB, errs)
	}
	t.Setenv("RALLYJUDGE_CONFIG", cfg)
	if code, out, errs = runCmd("export", "cli"); code != 0 || out != byDB {
		t.Fatalf("export with RALLYJUDGE_CONFIG: exit %d\n%s", code, errs)
	}
	if code, _, _ = runCmd("export", "cli", "--db", db, "--config", cfg); code != 2 {
		t.Fatalf("export with both --db and --config: exit %d, want 2 (usage)", code)
	}
}

// readRJA reads an archive file (readArchive) that must be RoboRally's .rja.
func readRJA(path string) (rja.Archive, error) {
	a, err := readArchive(path)
	if err != nil {
		return rja.Archive{}, err
	}
	ra, ok := a.(*rja.Archive)
	if !ok {
		return rja.Archive{}, fmt.Errorf("%s: not an .rja archive", path)
	}
	return *ra, nil
}
