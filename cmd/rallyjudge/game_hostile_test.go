package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// dbRows counts the rows of every table of the SQLite database at path, and lists the
// games' tags: what a refused command must leave as it was.
func dbRows(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	rows.Close()
	var b strings.Builder
	for _, tb := range tables {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM "` + tb + `"`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s=%d ", tb, n)
	}
	var tags string
	if err := db.QueryRow(`SELECT coalesce(group_concat(tag, ','), '') FROM games`).Scan(&tags); err != nil {
		t.Fatal(err)
	}
	return b.String() + "games:" + tags
}

// TestGameCreateRefusesHostileFlags: hostile values on `rallyjudge game create`'s command
// line (found by an attack) are refused as usage errors (exit 2) that name the flag and
// say what is wrong, and nothing is stored. Before the fix every one of them created a
// game (or kept the last of a repeated flag silently).
func TestGameCreateRefusesHostileFlags(t *testing.T) {
	db := filepath.Join(t.TempDir(), "g.db")
	base := []string{"--db", db, "--address", "judge@example.test"}
	run := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := cmdGame(append(append([]string{"create"}, base...), args...), &out, &errb)
		return code, out.String() + errb.String()
	}
	// A game stored before: the refusals must leave it and everything else as it is.
	if code, out := run("--game", "first", "--course", "sprint", "--gm", "gm@example.test"); code != 0 {
		t.Fatalf("the first game: exit %d: %s", code, out)
	}
	before := dbRows(t, db)
	ok := []string{"--game", "evil", "--course", "sprint"}
	tests := []struct {
		name string
		args []string
		want []string // in the error, all of them
	}{
		{"gm not an address", []string{"--gm", "boss"}, []string{"--gm", "mail address"}},
		{"gm with CRLF", []string{"--gm", "boss@example.test\r\nBcc: victim@example.test"}, []string{"--gm", "control character"}},
		{"gm with LF", []string{"--gm", "boss@example.test\nX: y"}, []string{"--gm", "control character"}},
		{"gm with a display name", []string{"--gm", "Boss <boss@example.test>"}, []string{"--gm", "plain mail address"}},
		{"gm a list", []string{"--gm", "a@example.test, b@example.test"}, []string{"--gm", "plain mail address"}},
		{"gm with bidi", []string{"--gm", "boss\u202e@example.test"}, []string{"--gm", "bidirectional"}},
		{"list broken", []string{"--list", "a@b>, evil@x"}, []string{"--list", "list"}},
		{"list of two", []string{"--list", "a@example.test, evil@example.test"}, []string{"--list", "plain mail address"}},
		{"list no domain dot", []string{"--list", "list@localhost.", "--name", "x"}, []string{"--list"}},
		{"address", []string{"--address", "x"}, []string{"--address", "mail address"}},
		{"address twice", []string{"--address", "judge2@example.test"}, []string{"-address", "given twice"}},
		{"missed-limit huge", []string{"--missed-limit", "99999999999"}, []string{"--missed-limit", "0 (never) to 99"}},
		{"missed-limit negative", []string{"--missed-limit", "-1"}, []string{"--missed-limit", "0 (never) to 99"}},
		{"name bidi", []string{"--name", "Spring\u202eOpen"}, []string{"--name", "bidirectional override"}},
		{"name escape", []string{"--name", "Spring\x1b[31mOpen"}, []string{"--name", "control character"}},
		{"name zero width", []string{"--name", "Spring\u200bOpen"}, []string{"--name", "zero-width"}},
		{"game twice", []string{"--game", "other"}, []string{"-game", "given twice"}},
		{"course twice", []string{"--course", "sprint"}, []string{"-course", "given twice"}},
		{"players twice", []string{"--players", "3", "--players", "4"}, []string{"-players", "given twice"}},
		{"set key twice", []string{"--set", "press=none", "--set", "press=any"}, []string{"-set", "press is given twice"}},
		{"set key twice, case", []string{"--set", "press=none", "--set", "PRESS=any"}, []string{"-set", "press is given twice"}},
		{"set and its flag", []string{"--name", "A", "--set", "name=B"}, []string{"--set name", "--name"}},
		{"rules key twice", []string{"--rules", "hand_size=9,hand_size=12"}, []string{"--rules", "rules.hand_size is given twice"}},
		{"rules ruleset twice", []string{"--rules", "postal,2023"}, []string{"--rules", "ruleset is given twice"}},
		{"rules empty key", []string{"--rules", "=9"}, []string{"--rules", "want k=v"}},
		{"alias twice", []string{"--players", "3", "--set", "max-players=4"}, []string{"players is given twice"}},
		{"grace negative", []string{"--grace", "-2h"}, []string{"--grace", "grace"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append([]string(nil), ok...), tt.args...)
			if tt.name == "address" {
				base[3] = "x"
				defer func() { base[3] = "judge@example.test" }()
				args = ok
			}
			code, out := run(args...)
			if code != 2 {
				t.Errorf("exit %d, want 2: %s", code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("the error %q lacks %q", out, w)
				}
			}
			if strings.ContainsAny(out, "\r\x1b\u202e\u200b") {
				t.Errorf("the error echoes the hostile characters: %q", out)
			}
			if after := dbRows(t, db); after != before {
				t.Errorf("the database changed:\n before %s\n after  %s", before, after)
			}
		})
	}
	// The other operations' addresses: REPLACE's and add-gm's --email.
	for _, op := range [][]string{{"replace", "--game", "first", "--robot", "Ann", "--email", "a@example.test\r\nBcc: v@example.test"},
		{"add-gm", "--email", "Boss <boss@example.test>"}, {"add-gm", "--game", "first", "--email", "x"}} {
		var out, errb bytes.Buffer
		if code := cmdGame(append(append([]string{op[0]}, base...), op[1:]...), &out, &errb); code != 2 || !strings.Contains(errb.String(), "--email") {
			t.Errorf("%v: exit %d: %s%s", op, code, out.String(), errb.String())
		}
		if after := dbRows(t, db); after != before {
			t.Errorf("%v changed the database:\n before %s\n after  %s", op, before, after)
		}
	}
	// A value with a quote is a value, not more settings (the flags were once joined
	// into words and read again: --name 'a" gm=...' set a game master).
	if code, out := run("--game", "quoted", "--course", "sprint", "--name", `A" gm=evil@example.test`); code != 0 || !strings.Contains(out, `A" gm=evil@example.test`) {
		t.Errorf("a name with a quote: exit %d: %s", code, out)
	}
	if after := dbRows(t, db); !strings.Contains(after, "gms=1 ") {
		t.Errorf("a quote in --name added a game master: %s", after)
	}
	// Any int64 is a seed, negative too, as CREATE seed=N by mail takes it.
	if code, out := run("--game", "negseed", "--course", "sprint", "--seed", "-1", "--missed-limit", "99"); code != 0 {
		t.Errorf("--seed -1 --missed-limit 99: exit %d: %s", code, out)
	}
}
