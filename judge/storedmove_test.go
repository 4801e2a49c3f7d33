package judge

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/store"
)

// storedMoveCases are moves whose JSON a version stores: compact or not, with what
// json.Marshal escapes, with text that is not UTF-8, empty.
var storedMoveCases = []game.Move{
	{Data: json.RawMessage(`{"sheet":{"robot":"Ada","turn":1,"program":[{"p":490}]}}`), Text: "P490 Move 1\nif damage > 4 then power down"},
	{Data: json.RawMessage(`{"a": 1, "b" : [ 2 ]}`), Text: "spaced"},
	{Data: json.RawMessage(` {"a":1}`), Text: "a space before"},
	{Data: json.RawMessage(`{"a":1} `), Text: "a space after"},
	{Data: json.RawMessage(`{"a":"<b>&"}`), Text: "escaped by Marshal"},
	{Data: json.RawMessage(`{"a":"\u003cb\u003e"}`), Text: "escaped already"},
	{Data: json.RawMessage(`"x"`), Text: "bad \xff utf-8"},
	{Data: json.RawMessage(`12`), Text: "a number"},
	{Data: json.RawMessage(`null`), Text: "null"},
	{Data: nil, Text: "no data"},
	{Data: json.RawMessage(`{"a":1}`), Text: "<html> & \u2028 \"quoted\" \\ \t"},
}

// checkStoredMove fails t unless storedMove of m gives what reading m's JSON back gives.
func checkStoredMove(t *testing.T, m game.Move) {
	t.Helper()
	parsed, err := json.Marshal(m)
	if err != nil {
		return // no such version is stored
	}
	got, gerr := storedMove(m, parsed)
	want, werr := hostedMove(store.OrderSheet{Parsed: parsed})
	if !reflect.DeepEqual(got, want) || (gerr == nil) != (werr == nil) {
		t.Fatalf("storedMove of %q (%q): %q %q (%v), read back: %q %q (%v)", m.Data, m.Text, got.Data, got.Text, gerr, want.Data, want.Text, werr)
	}
}

// TestStoredMoveReadsAsStored: a version's move is taken as the game made it only when
// its stored JSON reads back as the same move; else it is read back.
func TestStoredMoveReadsAsStored(t *testing.T) {
	for _, m := range storedMoveCases {
		checkStoredMove(t, m)
	}
}

func FuzzStoredMove(f *testing.F) {
	for _, m := range storedMoveCases {
		f.Add([]byte(m.Data), m.Text)
	}
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		checkStoredMove(t, game.Move{Data: data, Text: text})
	})
}
