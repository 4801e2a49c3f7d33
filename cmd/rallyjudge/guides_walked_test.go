package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/judge"
	"github.com/rallyjudge/rallyjudge/mail"
)

// The guides walked by a test (issue 22 item 5): every command line of docs/players.md
// and docs/gamemasters.md, in the order the guide gives it, is run on a fresh database,
// checked for its flags, or named below as a line the test cannot run and why. The mails
// of docs/players.md are walked in the judge package (TestPlayersGuideWalked,
// TestPlayersGuideRepliesAsQuoted); the game master's mail commands, the "by mail" column of
// the table, are walked here (TestGameMasterGuideByMail).

// guideLine is one command line of a guide: a line of a code block (a line ending in `\`
// joined with the next), an inline code span that starts with "rallyjudge ", or a cell of
// the "on the server" column of the game master's table (given "rallyjudge " in front).
type guideLine struct {
	line int // where it starts in the guide
	text string
}

// guideCommandLines are the command lines of docs/NAME in the order they stand. Code blocks
// marked yaml, json or sheet hold no command lines; in docs/players.md the unmarked blocks
// are mails (walked by the judge package), so only its inline spans count.
func guideCommandLines(t *testing.T, name string) []guideLine {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	var out []guideLine
	fence, info, indented := false, "", false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		trim := strings.TrimSpace(l)
		isCode := false
		switch {
		case strings.HasPrefix(trim, "```"):
			fence, info = !fence, strings.TrimPrefix(trim, "```")
			continue
		case fence:
			isCode = info == "" && name != "players.md"
		case strings.HasPrefix(l, "    ") && trim != "" && (indented || i > 0 && strings.TrimSpace(lines[i-1]) == ""):
			isCode, indented = true, true
		default:
			indented = false
		}
		if isCode {
			start := i
			for strings.HasSuffix(l, "\\") && i+1 < len(lines) {
				i++
				l = strings.TrimSuffix(l, "\\") + " " + strings.TrimSpace(lines[i])
			}
			if s := strings.Join(strings.Fields(l), " "); s != "" {
				out = append(out, guideLine{start + 1, s})
			}
			continue
		}
		if fence {
			continue
		}
		// inline spans (a span may wrap onto the next line) and the server column
		if m := regexp.MustCompile("^\\|[^|]*\\| (`game .*?) \\|").FindStringSubmatch(l); m != nil {
			for _, c := range regexp.MustCompile("`(game [^`]*)`").FindAllStringSubmatch(m[1], -1) {
				out = append(out, guideLine{i + 1, "rallyjudge " + c[1]})
			}
			continue
		}
		joined := l
		if strings.Count(l, "`")%2 == 1 && i+1 < len(lines) {
			joined += " " + lines[i+1]
		}
		for _, m := range regexp.MustCompile("`(rallyjudge(?: [^`]*)?)`").FindAllStringSubmatchIndex(joined, -1) {
			if m[0] >= len(l) {
				break // a span that starts on the next line is that line's
			}
			out = append(out, guideLine{i + 1, strings.Join(strings.Fields(joined[m[2]:m[3]]), " ")})
		}
	}
	return out
}

// notRun are the guides' command lines the test does not run, and why. A line of a guide
// that is neither run nor listed here fails the test until it is classified; a line listed
// here that the guides no longer hold fails it too.
var notRun = map[string]string{
	// not rallyjudge: the system's own tools, as root
	"useradd --system --home-dir /var/lib/rallyjudge --shell /usr/sbin/nologin rallyjudge":  "system tool (root)",
	"install -m 0755 rallyjudge /usr/local/bin/rallyjudge":                                  "system tool (root)",
	"install -d -m 0750 -o root -g rallyjudge /etc/rallyjudge":                              "system tool (root)",
	"install -m 0640 -o root -g rallyjudge rallyjudge.yaml /etc/rallyjudge/rallyjudge.yaml": "system tool (root)",
	"install -m 0640 -o root -g rallyjudge /dev/stdin /etc/rallyjudge/imap-password":        "system tool (root)",
	"cp docs/rallyjudge.service /etc/systemd/system/":                                       "systemd (root)",
	"systemctl daemon-reload":           "systemd (root)",
	"systemctl enable --now rallyjudge": "systemd (root)",
	"journalctl -u rallyjudge -f":       "systemd (root)",
	"systemctl stop rallyjudge":         "systemd (root)",
	"level=INFO msg=mail inbox=42 from=zoe@example.org game=spring robot=Zoombot outcome=invalid errors=2 note=\"invalid orders\"": "a log line serve writes, not a command",
	"sqlite3 /var/lib/rallyjudge/rallyjudge.db \".backup '/var/backups/rallyjudge/rallyjudge-$(date +%F).db'\"":                    "a sqlite3 shell dot-command: no sqlite3 shell here (VACUUM INTO, above it, is run)",
	"CREATE ROLE rallyjudge LOGIN PASSWORD '…';":                                                                                             "PostgreSQL's SQL, as its administrator",
	"CREATE DATABASE rallyjudge OWNER rallyjudge ENCODING 'UTF8';":                                                                           "PostgreSQL's SQL, as its administrator",
	"database: postgres://rallyjudge@db.example.org:5432/rallyjudge?sslmode=verify-full":                                                     "config lines, not a command",
	"database_password_file: /etc/rallyjudge/db-password":                                                                                    "config lines, not a command",
	"pg_dump --format=custom --file=/var/backups/rallyjudge/rallyjudge-$(date +%F).dump \"postgres://rallyjudge@db.example.org/rallyjudge\"": "PostgreSQL's tool, needs a PostgreSQL server",
}

// helpOnly are rallyjudge lines the test checks against the subcommand's --help only: the
// subcommand exists, its --help exits 0, and every flag the line gives is one the help
// describes. Each says why the line is not run.
var helpOnly = map[string]string{
	"rallyjudge":                      "the program's name: its --help lists the commands",
	"rallyjudge serve":                "serves a live mailbox until stopped",
	"rallyjudge serve --config FILE":  "serves a live mailbox until stopped",
	"rallyjudge demo":                 "plays a whole game by mail on servers it starts: minutes (judge's TestHostedDemoPlaysToTheEnd)",
	"rallyjudge demo --save-mail DIR": "plays a whole game by mail: minutes (judge's TestDemoSaveMailKeepsEveryMail)",
	"rallyjudge demo --rules 2023":    "plays a whole game by mail: minutes (TestDemo2023PlaysToWinner)",
	"rallyjudge demo --play":          "waits for a person's mail",
	"rallyjudge demo --options armed --course high-water --variants deluxe-package,bio-bots --seed 1": "plays a whole game by mail: minutes (TestDemoArmedPlaysToWinner plays seed 1)",
	"rallyjudge init":            "a name: the init line of section 2 is run",
	"rallyjudge render":          "a name: draws a course to a file (render_test.go)",
	"rallyjudge export":          "a name: the game's archive (TestExportReplayImport)",
	"rallyjudge check":           "a name: the check lines are run",
	"rallyjudge game create":     "a name: the create lines are run",
	"rallyjudge db copy":         "a name: the db copy line is run",
	"rallyjudge import --player": "a name: seats a player from an archive (TestExportReplayImport)",
}

// exitCodes are the lines whose exit status, as the guide tells it, is not 0.
var exitCodes = map[string]int{
	"rallyjudge game": 2, // "alone lists every operation and its flags": a usage text, exit 2
}

// TestGuidesCommandLinesWalked runs every command line of docs/gamemasters.md, then of
// docs/players.md, on a fresh database, in the guide's order. Substitutions, each what a
// reader on this machine would write instead:
//   - /etc/rallyjudge/rallyjudge.yaml and FILE (a config): judge.yaml in the test's
//     directory, naming the database the guide's `rallyjudge init` line made there
//     (rallyjudge.db), the mail servers at 127.0.0.1:1 and passwords in variables set here;
//   - /var/lib/rallyjudge/rallyjudge.db: that database;
//   - [--robot NAME]: --robot Hulk; mail.eml: Hulk's sheet for the turn being played;
//   - inbox id 42 in the sqlite3 line: the last mail the judge stored;
//   - /var/backups/rallyjudge/rallyjudge-$(date +%F).db: backup-DATE.db in the directory;
//   - the PostgreSQL DSN of `db copy` (and PGPASSWORD=…): copy.db, a new SQLite file, which
//     `db compare A B` then compares with the database;
//   - SHEET: the postal rules' sample sheet of docs/players.md, in sheet.txt.
//
// Players join by mail before `game start`, as the guide says they do.
func TestGuidesCommandLinesWalked(t *testing.T) {
	docs := map[string][]guideLine{}
	for _, doc := range []string{"gamemasters.md", "players.md"} {
		docs[doc] = guideCommandLines(t, doc)
	}
	sample := playersSampleSheet(t)
	dir := t.TempDir()
	t.Chdir(dir)
	db := filepath.Join(dir, "rallyjudge.db")
	cfg := filepath.Join(dir, "judge.yaml")
	conf := fmt.Sprintf("database: %s\njudge_address: robojudge@example.org\njudge_name: Robo Judge\n"+
		"imap:\n  address: 127.0.0.1:1\n  username: robo\n  password_env: RJ_GUIDE_PW\n"+
		"smtp:\n  address: 127.0.0.1:1\n  username: robo\n  password_env: RJ_GUIDE_PW\n", db)
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RJ_GUIDE_PW", "not-a-real-password")
	t.Setenv("RALLYJUDGE_CONFIG", cfg)
	if err := os.WriteFile("sheet.txt", []byte(sample), 0o600); err != nil {
		t.Fatal(err)
	}
	date := time.Now().UTC().Format("2006-01-02")
	sub := strings.NewReplacer(
		"/etc/rallyjudge/rallyjudge.yaml", cfg,
		"--config FILE", "--config "+cfg,
		"/var/lib/rallyjudge/rallyjudge.db", db,
		"[--robot NAME]", "--robot Hulk",
		"/var/backups/rallyjudge/rallyjudge-$(date +%F).db", filepath.Join(dir, "backup-"+date+".db"),
		"PGPASSWORD=… ", "",
		`"postgres://rallyjudge@db.example.org/rallyjudge?sslmode=verify-full"`, "copy.db",
		"rallyjudge db compare A B", "rallyjudge db compare "+db+" copy.db",
		"rallyjudge check SHEET", "rallyjudge check sheet.txt",
	)
	used := map[string]bool{}
	walked, ran, helped, skipped := 0, 0, 0, 0
	started := false
	for _, doc := range []string{"gamemasters.md", "players.md"} {
		for _, gl := range docs[doc] {
			walked++
			where := fmt.Sprintf("docs/%s:%d: %s", doc, gl.line, gl.text)
			if why, ok := notRun[gl.text]; ok {
				used[gl.text], skipped = true, skipped+1
				t.Logf("not run (%s): %s", why, where)
				continue
			}
			line := sub.Replace(gl.text)
			args, err := shellWords(line)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			switch {
			case helpOnly[gl.text] != "":
				used[gl.text], helped = true, helped+1
				checkHelpDescribes(t, where, args[1:])
				continue
			case args[0] == "sqlite3":
				ran++
				t.Logf("run: %s", where)
				runSQLiteLine(t, where, args[1:])
				continue
			case args[0] != "rallyjudge":
				t.Errorf("%s: a line the test neither runs nor lists in notRun", where)
				continue
			case len(args) > 1 && (args[1] == "serve" && !strings.Contains(line, "--check") || args[1] == "demo"):
				// serving a mailbox or playing a demo is never run here: list the line in helpOnly
				t.Errorf("%s: serve and demo lines are checked by --help only: list it in helpOnly", where)
				continue
			}
			if len(args) > 2 && args[1] == "game" && args[2] == "start" && !started {
				joinByMail(t, db, "spring", "Zoombot", "Hulk")
				standBy(t, db, "spring", "standby@example.org")
				started = true
			}
			if len(args) > 2 && args[1] == "check" && args[2] == "--mail" {
				writeHulkSheet(t, "mail.eml")
			}
			ran++
			t.Logf("run: %s", where)
			want := exitCodes[gl.text]
			if _, ok := exitCodes[gl.text]; ok {
				used[gl.text] = true
			}
			var out, errb bytes.Buffer
			if code := run(args[1:], &out, &errb); code != want {
				t.Errorf("%s\nexit %d, want %d:\n%s%s", where, code, want, out.String(), errb.String())
			}
			checkGuideOutput(t, where, gl.text, out.String()+errb.String())
		}
	}
	var stale []string
	for _, m := range []map[string]string{notRun, helpOnly} {
		for l := range m {
			if !used[l] {
				stale = append(stale, l)
			}
		}
	}
	for l := range exitCodes {
		if !used[l] {
			stale = append(stale, l)
		}
	}
	sort.Strings(stale)
	for _, l := range stale {
		t.Errorf("listed in the test but in neither guide any more: %q", l)
	}
	t.Logf("walked %d command lines: %d run, %d checked by --help, %d not run", walked, ran, helped, skipped)
	if ran < 25 {
		t.Errorf("ran only %d command lines", ran)
	}
}

// checkGuideOutput checks what the guide says a line prints.
func checkGuideOutput(t *testing.T, where, line, out string) {
	t.Helper()
	switch line {
	case "rallyjudge game":
		// "alone lists every operation": each operation the guide's table names
		for _, op := range []string{"create", "start", "list", "status", "extend", "deadline", "pause", "resume",
			"process", "rollback", "replace", "kick", "set", "broadcast", "history"} {
			if !regexp.MustCompile(`(?m)^\s+` + op + `\s`).MatchString(out) {
				t.Errorf("%s: the list of operations lacks %q:\n%s", where, op, out)
			}
		}
	case "rallyjudge db compare A B":
		if out == "" {
			t.Errorf("%s: printed nothing", where)
		}
	}
}

// checkHelpDescribes runs the subcommand of args with --help: it must exit 0 and describe
// every flag args give.
func checkHelpDescribes(t *testing.T, where string, args []string) {
	t.Helper()
	var cmd []string
	if len(args) > 0 {
		cmd = append(cmd, args[0])
	}
	if len(args) > 1 && !strings.HasPrefix(args[1], "-") && (args[0] == "game" || args[0] == "db") {
		cmd = append(cmd, args[1])
	}
	var out, errb bytes.Buffer
	if code := run(append(cmd, "--help"), &out, &errb); code != 0 {
		t.Errorf("%s: %s --help exits %d:\n%s", where, strings.Join(cmd, " "), code, errb.String())
		return
	}
	help := out.String()
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !regexp.MustCompile(`(^|[\s\[(|])--?` + regexp.QuoteMeta(name) + `\b`).MatchString(help) {
			t.Errorf("%s: %s --help does not describe %s:\n%s", where, strings.Join(cmd, " "), a, help)
		}
	}
}

// runSQLiteLine runs a sqlite3 line's SQL with the driver the store uses: writefile (a
// function of the sqlite3 shell) is read as the column it writes, and inbox id 42 as the
// last mail stored; a SELECT must find a row.
func runSQLiteLine(t *testing.T, where string, args []string) {
	t.Helper()
	if len(args) != 2 {
		t.Fatalf("%s: want sqlite3 DB SQL", where)
	}
	conn, err := sql.Open("sqlite", "file:"+args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	q := regexp.MustCompile(`writefile\('[^']*', (\w+)\)`).ReplaceAllString(args[1], "$1")
	if strings.HasPrefix(q, "SELECT") {
		q = strings.Replace(q, "id = 42", "id = (SELECT max(id) FROM inbox)", 1)
		var raw []byte
		if err := conn.QueryRow(q).Scan(&raw); err != nil || len(raw) == 0 {
			t.Errorf("%s: %v (%d bytes)", where, err, len(raw))
		}
		return
	}
	if _, err := conn.Exec(q); err != nil {
		t.Errorf("%s: %v", where, err)
	}
}

// playersSampleSheet is the postal rules' sample of docs/players.md, the first ```sheet
// block.
func playersSampleSheet(t *testing.T) string {
	t.Helper()
	infos, blocks := fenced(t, "players.md")
	for i, info := range infos {
		if info == "sheet" {
			return blocks[i]
		}
	}
	t.Fatal("docs/players.md has no ```sheet block")
	return ""
}

// writeHulkSheet writes, as Hulk's mail program would, a sheet for the game spring: orders
// only, which a sheet may be (the program stays what it was).
func writeHulkSheet(t *testing.T, path string) {
	t.Helper()
	sheet := "game spring\nrobot Hulk\npower down if damage > 4\n"
	if err := os.WriteFile(path, guideMail("hulk@example.org", "[RR spring] orders", sheet), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestGameMasterGuideConfigsCheck: each mailbox's config of docs/gamemasters.md section 1
// (Gmail, Fastmail, Dovecot and Postfix), with the database line the guide says the minimum
// holds, passes `rallyjudge serve --config FILE --check`, the guide's own check; the password
// file it names is a file of the test's. The problem the guide quotes as the check's ("imap.tls:
// "ssl" is not one of imaps, starttls, plain") is what the check prints for tls: ssl.
func TestGameMasterGuideConfigsCheck(t *testing.T) {
	infos, blocks := fenced(t, "gamemasters.md")
	quote := regexp.MustCompile(`\("(imap\.tls: .*?)"\)`).FindStringSubmatch(strings.Join(strings.Fields(guideFile(t, "gamemasters.md")), " "))
	if quote == nil {
		t.Fatal("docs/gamemasters.md no longer quotes the check's imap.tls problem")
	}
	dir := t.TempDir()
	pw := filepath.Join(dir, "imap-password")
	if err := os.WriteFile(pw, []byte("not-a-real-password\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, b := range blocks {
		if infos[i] != "yaml" {
			continue
		}
		n++
		conf := "database: " + filepath.Join(dir, "rallyjudge.db") + "\n" + strings.ReplaceAll(b, "/etc/rallyjudge/imap-password", pw)
		cfg := filepath.Join(dir, fmt.Sprintf("config-%d.yaml", n))
		if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := run([]string{"serve", "--config", cfg, "--check"}, &out, &errb); code != 0 {
			t.Errorf("docs/gamemasters.md's config %d:\n%s\nserve --check: exit %d:\n%s%s", n, b, code, out.String(), errb.String())
		}
		if n == 1 {
			bad := regexp.MustCompile(`(?m)^(  tls: )\S+`).ReplaceAllString(conf, "${1}ssl") // both servers' tls
			if err := os.WriteFile(cfg, []byte(bad), 0o600); err != nil {
				t.Fatal(err)
			}
			out.Reset()
			errb.Reset()
			if code := run([]string{"serve", "--config", cfg, "--check"}, &out, &errb); code == 0 || !strings.Contains(out.String()+errb.String(), quote[1]) {
				t.Errorf("tls: ssl: serve --check exits %d and says\n%s%s\nnot what docs/gamemasters.md quotes (and a problem, exit not 0), %q", code, out.String(), errb.String(), quote[1])
			}
		}
	}
	if n < 3 {
		t.Errorf("docs/gamemasters.md has %d yaml configs; want Gmail's, Fastmail's and Dovecot's", n)
	}
}

func guideFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGameMasterGuideByMail walks the game master's mails of docs/gamemasters.md on a fresh
// database, in the guide's order: `game add-gm` (the guide's line) makes you@example.org a
// server game master, whose secret sends the CREATE the guide shows; the guide's `game
// create` for spring (its --gm mails the game's game master secret), players JOIN by mail
// with the CONFIRM their reply asks for, `game start`, then every command of the table's "by
// mail" column, each a mail from you@example.org with the secret and `[RR spring]` in its
// subject. Each must be done, not refused ("Not done: ..." or a rejection). Substitutions:
// BROADCAST's "..." is docs/commands.md's text "The board is wet today."; the config is the
// test's, as in TestGuidesCommandLinesWalked.
func TestGameMasterGuideByMail(t *testing.T) {
	doc := guideFile(t, "gamemasters.md")
	flat := strings.Join(strings.Fields(doc), " ")
	addGM := regexp.MustCompile("`(rallyjudge game add-gm [^`]*)`").FindStringSubmatch(flat)
	create := regexp.MustCompile("`(CREATE autumn23 [^`]*)`").FindStringSubmatch(flat)
	gmCreate := regexp.MustCompile("(?m)^(rallyjudge game create [^\\n]*--game spring[^\\n]*)$").FindStringSubmatch(strings.ReplaceAll(doc, "\\\n", " "))
	start := regexp.MustCompile("(?m)^(rallyjudge game start .*)$").FindStringSubmatch(doc)
	if addGM == nil || create == nil || gmCreate == nil || start == nil {
		t.Fatalf("docs/gamemasters.md: add-gm %v, CREATE by mail %v, game create spring %v, game start %v",
			addGM != nil, create != nil, gmCreate != nil, start != nil)
	}
	var byMail []string
	for _, row := range regexp.MustCompile("(?m)^\\|[^|]*\\| `game [^|]*\\| (.*) \\|$").FindAllStringSubmatch(doc, -1) {
		for _, c := range regexp.MustCompile("`([A-Z][^`]*)`").FindAllStringSubmatch(row[1], -1) {
			byMail = append(byMail, c[1])
		}
	}
	if len(byMail) < 15 {
		t.Fatalf("found %d commands in the table's by-mail column", len(byMail))
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "rallyjudge.db")
	cfg := filepath.Join(dir, "judge.yaml")
	conf := fmt.Sprintf("database: %s\njudge_address: robo@example.org\nimap:\n  address: 127.0.0.1:1\n  username: robo\n"+
		"  password_env: RJ_GUIDE_PW\nsmtp:\n  address: 127.0.0.1:1\n", db)
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RALLYJUDGE_CONFIG", cfg)
	const gm = "you@example.org"
	runLine := func(line string) {
		t.Helper()
		args, err := shellWords(strings.ReplaceAll(line, "/etc/rallyjudge/rallyjudge.yaml", cfg))
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := run(args[1:], &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", line, code, out.String(), errb.String())
		}
	}
	runLine(addGM[1])
	server := gmSecret(t, db, gm, "")
	if reply := mailJudge(t, db, gm, "create", "secret "+server+"\n"+create[1]+"\n"); isRefusal(reply) {
		t.Errorf("docs/gamemasters.md's %q by mail:\n%s", create[1], reply)
	}
	runLine(gmCreate[1])
	secret := gmSecret(t, db, gm, "spring")
	joinByMail(t, db, "spring", "Zoombot", "Hulk")
	standBy(t, db, "spring", "standby@example.org")
	runLine(start[1])
	for _, c := range byMail {
		body := strings.Replace(c, "BROADCAST ...", "BROADCAST The board is wet today.", 1)
		reply := mailJudge(t, db, gm, "[RR spring] "+strings.Fields(c)[0], "secret "+secret+"\n"+body+"\n")
		if os.Getenv("GUIDE_PRINT") != "" {
			t.Logf("=== %s\n%s", c, reply)
		}
		if isRefusal(reply) || !strings.Contains(reply, "> "+strings.Fields(c)[0]) {
			t.Errorf("docs/gamemasters.md's table, by mail %q: refused, or its reply does not answer it:\n%s", c, reply)
		}
	}
	t.Logf("walked %d mails: CREATE and %d of the table", 1+len(byMail), len(byMail))

	// "LIST names the ruleset and every setting a game changed" with the line the guide
	// quotes: a game with those settings, made by the guide's game create.
	quoted := regexp.MustCompile("\\(`(rules: postal with [^`]*)`\\)").FindStringSubmatch(flat)
	if quoted == nil {
		t.Fatal("docs/gamemasters.md no longer quotes LIST's rules line")
	}
	kv := strings.Fields(strings.TrimPrefix(quoted[1], "rules: postal with "))
	runLine("rallyjudge game create --config /etc/rallyjudge/rallyjudge.yaml --game quoted --course sprint --rules " + strings.Join(kv, ","))
	if reply := mailJudge(t, db, "reader@example.org", "list", "LIST\n"); !strings.Contains(reply, quoted[1]) {
		t.Errorf("LIST does not say what docs/gamemasters.md quotes, %q:\n%s", quoted[1], reply)
	}
}

// isRefusal: a reply that did not do what its mail asked.
func isRefusal(reply string) bool {
	return reply == "" || strings.Contains(reply, "Not done") || strings.Contains(reply, "not accepted") ||
		strings.Contains(reply, "refused")
}

// mailJudge hands the judge a mail and returns the text of its reply to from (every mail
// to from it sends, joined).
func mailJudge(t *testing.T, db, from, subject, body string) string {
	t.Helper()
	var text strings.Builder
	withJudge(t, db, func(j *judge.Judge) {
		guideUID++
		if err := j.HandleMessage(context.Background(), 1, guideUID, guideMail(from, subject, body)); err != nil {
			t.Fatal(err)
		}
		s := &captureSender{}
		if _, err := j.DrainOutbox(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		for i, raw := range s.raws {
			if x, err := mail.Extract(raw); err == nil && strings.EqualFold(s.to[i], from) {
				text.WriteString(x.Text)
			}
		}
	})
	return text.String()
}

var guideUID uint32 = 1000

var gmSecretRE = regexp.MustCompile(`game master secret is: (\S+)`)

// gmSecret is the game master secret the outbox mails to addr (about game tag, or the
// server's when tag is ""), as it is sent.
func gmSecret(t *testing.T, db, addr, tag string) string {
	t.Helper()
	secret := ""
	withJudge(t, db, func(j *judge.Judge) {
		s := &captureSender{}
		if _, err := j.DrainOutbox(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		for i, raw := range s.raws {
			x, err := mail.Extract(raw)
			if err != nil || !strings.EqualFold(s.to[i], addr) || tag != "" && !strings.Contains(x.Text, tag) {
				continue
			}
			if m := gmSecretRE.FindStringSubmatch(x.Text); m != nil {
				secret = m[1]
			}
		}
	})
	if secret == "" {
		t.Fatalf("no game master secret mailed to %s (game %q)", addr, tag)
	}
	return secret
}

// TestPlayersGuideSheetsCheck: every sheet docs/players.md shows (```sheet blocks: the
// postal sample, Zoombot's, the locked registers, the 2023 sheet, the standing orders) is
// read without an error by `rallyjudge check SHEET`, the command the guide gives for it, and
// its common mistake (```sheet-error) is refused (exit 1) with the line and column. The
// sheets for the guide's own game are also played in it by the judge package's
// TestPlayersGuideWalked.
func TestPlayersGuideSheetsCheck(t *testing.T) {
	infos, blocks := fenced(t, "players.md")
	dir := t.TempDir()
	n := 0
	for i, info := range infos {
		if !strings.HasPrefix(info, "sheet") {
			continue
		}
		n++
		path := filepath.Join(dir, fmt.Sprintf("sheet%d.txt", n))
		if err := os.WriteFile(path, []byte(blocks[i]), 0o600); err != nil {
			t.Fatal(err)
		}
		want := 0
		if info == "sheet-error" {
			want = 1
		}
		var out, errb bytes.Buffer
		code := run([]string{"check", path}, &out, &errb)
		if code != want {
			t.Errorf("docs/players.md's ```%s block %d:\n%s\ncheck: exit %d, want %d:\n%s%s", info, n, blocks[i], code, want, out.String(), errb.String())
		}
		if want == 1 && !regexp.MustCompile(`:\d+:\d+: error: `).MatchString(errb.String()+out.String()) {
			t.Errorf("the common mistake's refusal names no line and column:\n%s%s", out.String(), errb.String())
		}
	}
	if n < 7 {
		t.Errorf("docs/players.md shows %d sheets; want the 6 sheets and the common mistake", n)
	}
}
