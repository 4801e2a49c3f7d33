package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// baseSavedTurn is a saved turn of a new two-robot game on sprint, each robot playing
// the first five cards of its hand, as JSON decoded into generic maps to mutate.
func baseSavedTurn(t testing.TB) []byte {
	t.Helper()
	_, st, played := sprintTurn(t)
	b, err := json.Marshal(savedTurn{Course: "sprint", Seed: 9, State: st, Orders: played})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestResolveRefusesHostileSavedTurns: a saved turn is outside input (rallyjudge resolve,
// check --state). Every hostile shape is refused with exit 2 and an error that names the
// file and says what is wrong, never played and never a panic.
func TestResolveRefusesHostileSavedTurns(t *testing.T) {
	base := baseSavedTurn(t)
	edit := func(f func(m map[string]any)) string {
		var m map[string]any
		if err := json.Unmarshal(base, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	robot := func(m map[string]any, i int) map[string]any {
		return m["state"].(map[string]any)["robots"].([]any)[i].(map[string]any)
	}
	order := func(m map[string]any, i int) map[string]any { return m["orders"].([]any)[i].(map[string]any) }
	hand := func(m map[string]any, i int) []any { return robot(m, i)["hand"].([]any) }
	deep := strings.Repeat(`{"not":`, 20000) + `{"damage":{"op":">","n":1}}` + strings.Repeat(`}`, 20000)
	tests := []struct{ name, text, want string }{
		{"not JSON", "{", "unexpected EOF"},
		{"a huge number", strings.Replace(string(base), `"seed":9`, `"seed":99999999999999999999999`, 1), "seed"},
		{"a string for a number", strings.Replace(string(base), `"seed":9`, `"seed":"nine"`, 1), "seed"},
		{"an unknown key", strings.Replace(string(base), `"seed":9`, `"seed":9,"sneed":1`, 1), "unknown field"},
		{"a course path", edit(func(m map[string]any) { m["course"] = "../../../etc/passwd" }), "course"},
		{"a robot off the board", edit(func(m map[string]any) { robot(m, 0)["pos"] = map[string]any{"x": 1e6, "y": 0} }), "off"},
		{"negative damage", edit(func(m map[string]any) { robot(m, 0)["damage"] = -3 }), "damage"},
		{"two robots of one name", edit(func(m map[string]any) { robot(m, 1)["name"] = "Ann"; order(m, 1)["robot"] = "Ann" }), "Ann"},
		{"a bidi override in a name", edit(func(m map[string]any) { robot(m, 1)["name"] = "B\u202Een"; order(m, 1)["robot"] = "B\u202Een" }), "bidirectional"},
		{"a card in two hands", edit(func(m map[string]any) { hand(m, 1)[0] = hand(m, 0)[0] }), "both Ann and Ben"},
		{"a card not in the deck", edit(func(m map[string]any) { hand(m, 0)[0] = 9999 }), "9999"},
		{"a program card not in the hand", edit(func(m map[string]any) { order(m, 0)["program"].([]any)[0] = hand(m, 1)[0] }), "hand"},
		{"a program card played twice", edit(func(m map[string]any) {
			p := order(m, 0)["program"].([]any)
			p[1] = p[0]
		}), "twice"},
		{"orders for the wrong seat", edit(func(m map[string]any) { order(m, 0)["robot"] = "Ben" }), "seat"},
		{"an unknown missed policy", edit(func(m map[string]any) { order(m, 0)["missed"] = "cheat" }), "missed-orders"},
		{"an unknown option card", edit(func(m map[string]any) { m["options"] = []any{"Brakes", "Death Ray"} }), "Death Ray"},
		{"a turn of 0", edit(func(m map[string]any) { m["state"].(map[string]any)["turn"] = 0 }), "turn"},
		{"conditions nested 20000 deep", edit(func(m map[string]any) {
			var c any
			_ = json.Unmarshal([]byte(deep), &c)
			order(m, 0)["sheet"] = map[string]any{"orders": []any{map[string]any{"if": c, "then": map[string]any{"do": "powerdown"}}}}
		}), "orders entry 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "turn.json")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			code := cmdResolve([]string{path}, &out, &errb)
			if code != 2 || !strings.Contains(errb.String(), path) || !strings.Contains(errb.String(), tc.want) || strings.Contains(errb.String(), "\u202e") {
				t.Errorf("exit %d, stderr %.300q; want exit 2 naming the file and %q", code, errb.String(), tc.want)
			}
		})
	}
}

// FuzzResolveSavedTurn: any bytes as a saved turn (rallyjudge resolve, check --state) are
// refused with exit 2 and an error naming the file, or resolve (exit 0 or 1); never a
// panic, never an impossible state played. The seeds are a real saved turn and its
// hostile variants from TestResolveRefusesHostileSavedTurns.
func FuzzResolveSavedTurn(f *testing.F) {
	base := baseSavedTurn(f)
	f.Add(base)
	f.Add([]byte(strings.Replace(string(base), `"seed":9`, `"seed":99999999999999999999999`, 1)))
	f.Add([]byte(strings.Replace(string(base), `"name":"Ben"`, `"name":"B\u202een"`, 1)))
	f.Add([]byte(strings.Replace(string(base), `"turn":1`, `"turn":0`, 1)))
	f.Add([]byte(`{"course":"sprint","seed":1,"state":{"turn":1,"robots":[]}}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 64<<10 {
			return
		}
		path := filepath.Join(dir, "turn.json")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		code := cmdResolve([]string{path}, &out, &errb)
		switch {
		case code == 2 && !strings.Contains(errb.String(), "rallyjudge resolve: "):
			t.Fatalf("exit 2 without saying why: %q", errb.String())
		case code == 0 && out.Len() == 0:
			t.Fatal("exit 0 without a result")
		}
	})
}
