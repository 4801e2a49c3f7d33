package judge

import (
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestCheckAddress: the one check of a game master's addresses (gm=, list=, --address).
func TestCheckAddress(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want string // "" ok, else in the refusal
	}{
		{"gm@example.test", ""},
		{"first.last+rally@mail.example.org", ""},
		{"judge@localhost", ""},
		{"", "empty"},
		{"x", "plain mail address"},
		{"gm@example", "no dot"},
		{"Boss <gm@example.test>", "plain mail address"},
		{"<gm@example.test>", "plain mail address"},
		{"a@b>, evil@x", "plain mail address"},
		{"a@example.test, b@example.test", "plain mail address"},
		{"gm@example.test\r\nBcc: v@example.test", "control character"},
		{"gm@example.test\n", "control character"},
		{"gm\u202e@example.test", "bidirectional"},
		{strings.Repeat("a", 250) + "@x.test", "at most 254"},
	} {
		err := CheckAddress("gm", tt.in)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%q refused: %v", tt.in, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "gm: ")):
			t.Errorf("%q: %v, want a refusal with %q", tt.in, err, tt.want)
		}
	}
}

// TestParseKVRefusesRepeatedKeys: a key given twice in CREATE by mail is refused, not
// the last one kept (the same KVMap the command line's settings go through).
func TestParseKVRefusesRepeatedKeys(t *testing.T) {
	for _, in := range []string{"course=sprint players=2 players=4", "course=sprint rules.hand_size=9 RULES.HAND_SIZE=12", `name="a b" name=c`} {
		if _, err := parseKV(strings.Fields(in)); err == nil || !strings.Contains(err.Error(), "given twice") {
			t.Errorf("%s: %v, want given twice", in, err)
		}
	}
	if _, err := KVMap([][2]string{{"list", "a@example.test"}, {"List", "b@example.test"}}); err == nil {
		t.Error("KVMap took list twice")
	}
}

func FuzzParseKV(f *testing.F) {
	for _, s := range []string{`course=sprint name="Autumn Cup" players=4`, "name=“Autumn Cup”", "a=b a=c", `x="`, "=", "k==v", "name=„Herbst“ list=a@b.test"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		kv, err := parseKV(strings.Fields(s))
		if err != nil {
			if kv != nil {
				t.Fatalf("%q: refused (%v) with settings %v", s, err, kv)
			}
			return
		}
		for k := range kv {
			if k == "" || k != strings.ToLower(k) || strings.ContainsAny(k, " \t") {
				t.Fatalf("%q: key %q", s, k)
			}
		}
	})
}

func FuzzParseDeadlineRule(f *testing.F) {
	for _, s := range []string{"48h", "after 48h", "daily 18:00", "daily@18:00", "18:00", "2d", "0h", "-48h", "daily 25:00", "999999999999h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := parseDeadlineRule(s)
		if err != nil {
			return
		}
		switch {
		case r.Clock != "":
			if _, err := time.Parse("15:04", r.Clock); err != nil {
				t.Fatalf("%q: clock %q", s, r.Clock)
			}
		case r.Hours < 1:
			t.Fatalf("%q: %d hours", s, r.Hours)
		}
		if !utf8.ValidString(deadlineRuleText(r)) {
			t.Fatalf("%q: shown as invalid UTF-8", s)
		}
	})
}

func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"2h", "90m", "2d", "24", "1h30m", "-2h", "9223372036854775807", "99999999999d", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseDuration(s)
		if err != nil {
			if d != 0 {
				t.Fatalf("%q: refused (%v) with %v", s, err, d)
			}
			return
		}
		// A count of hours or days is that many, never an overflowed one.
		v := strings.ToLower(strings.TrimSpace(s))
		if n, err := strconv.Atoi(v); err == nil && int64(d/time.Hour) != int64(n) {
			t.Fatalf("%q: %d hours read as %v", s, n, d)
		}
		if n, err := strconv.Atoi(strings.TrimSuffix(v, "d")); err == nil && strings.HasSuffix(v, "d") && int64(d/(24*time.Hour)) != int64(n) {
			t.Fatalf("%q: %d days read as %v", s, n, d)
		}
	})
}
