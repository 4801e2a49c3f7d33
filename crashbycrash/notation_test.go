package crashbycrash

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestParseMove(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Move
	}{
		{"place A3 push NE 1 accumulator\nmagnet C5\n", Move{Actions: []Action{
			{Kind: ActPlace, Cell: mustCell("A3"), Push: []Dir{NE}, Acc: 1}, {Kind: ActMagnet, Cell: mustCell("C5")}}}},
		{"play Lambada C4 C5\noperator D2 D3 D4\ndraw face-up 1, deck", Move{Actions: []Action{
			{Kind: ActCard, Card: Lambada, Cells: []Cell{mustCell("C4"), mustCell("C5")}},
			{Kind: ActOperator, Cells: []Cell{mustCell("D2"), mustCell("D3"), mustCell("D4")}}}, Draw: []Source{1, Deck}}},
		{"exchange Tandem Saboteur: face-up 2, deck\nPLAY bell charms e7 e2  # comment\n", Move{Actions: []Action{
			{Kind: ActExchange, Give: [2]Card{Tandem, Saboteur}, From: [2]Source{2, Deck}},
			{Kind: ActCard, Card: BellCharms, Cells: []Cell{mustCell("E7"), mustCell("E2")}}}}},
		{"play Double Hit\nplace E4 push S SE\ndraw deck keep Car Racket, Tandem", Move{Actions: []Action{
			{Kind: ActCard, Card: DoubleHit}, {Kind: ActPlace, Cell: mustCell("E4"), Push: []Dir{S, SE}}},
			Draw: []Source{Deck}, Keep: []Card{CarRacket, Tandem}}},
		{"play Expansion Unlimited\nplace H8 no push\n", Move{Actions: []Action{
			{Kind: ActCard, Card: ExpansionUnlimited}, {Kind: ActPlace, Cell: mustCell("H8"), NoPush: true}}}},
		{"# yaml\nactions:\n  - place C5\n  - operator D2 D3\ndraw: face-up 3\nkeep: Tandem\n", Move{Actions: []Action{
			{Kind: ActPlace, Cell: mustCell("C5")}, {Kind: ActOperator, Cells: []Cell{mustCell("D2"), mustCell("D3")}}},
			Draw: []Source{3}, Keep: []Card{Tandem}}},
	} {
		got, err := ParseMove(tc.in)
		if err != nil {
			t.Errorf("ParseMove(%q): %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseMove(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
		again, err := ParseMove(Format(got))
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("Format round trip of %q: %q → %+v, %v", tc.in, Format(got), again, err)
		}
	}
}

func TestParseMoveErrors(t *testing.T) {
	for _, tc := range []struct {
		in        string
		line, col int
		msg       string
	}{
		{"place Z9", 1, 7, `"Z9" is not a cell`},
		{"place C5\njump D4", 2, 1, `"jump": an action starts with`},
		{"play Joker C4", 1, 6, `"Joker" is not a card`},
		{"place C5 push UP", 1, 15, `"UP": want a direction`},
		{"place C5 2", 1, 10, `2 what?`},
		{"exchange Tandem: deck", 1, 16, "exchange names two cards"},
		{"draw deck\nplace C5", 2, 1, "an action after the draw line"},
		{"place C5\nplace C6\nplace C7", 3, 1, "a third action"},
		{"draw face-up 4", 1, 14, "face-up 4"},
		{"", 1, 1, "no action"},
		{"actions:\n  - place C5\n  - place Q1\n", 3, 11, `"Q1" is not a cell`},
		{"actions:\n  - place C5\ncolour: red\n", 3, 1, `unknown key "colour"`},
		// hostile: a signed count was read as a count, and -1 written back as none
		{"place C5 push N -1 accumulator", 1, 17, `"-1": want a direction`},
		{"place C5 push N +2 accumulators", 1, 17, `"+2": want a direction`},
		{"place C5 push N 99999999999999999999 accumulators", 1, 17, "want a direction"},
		{"pass\ndraw face-up 99999999999999999999", 2, 6, "face-up which?"},
		{"place C99999999999999999999", 1, 7, "is not a cell"},
		{"place C5\x00\npass", 1, 7, "is not a cell"},
		// a YAML syntax error is where the YAML reader finds it, not line 1, column 1
		{"actions:\n  - place C5\n  - pass\n draw: [\n", 3, 0, "not valid YAML: did not find expected key"},
		// a second key was read on after the first, as if one list
		{"actions: [place C5]\ndraw: deck\ndraw: deck\n", 3, 1, "draw given twice"},
		{"actions: [place C5]\nactions: [pass]\n", 2, 1, "actions given twice"},
		// a line break only YAML reads: its line numbers named a line the move does not have
		{"actions:\r0", 1, 9, "a carriage return (CR) without a line feed"},
		{"actions: [place C5]\u2028draw: deck\n", 1, 20, "U+2028"},
		{"actions:\r\n  - place C5\r\n  - place Q1\r\n", 3, 11, `"Q1" is not a cell`},
		// aliases point at a node, never copy it: refused, never expanded
		{"actions: [&x \"place C5\", *x]\n", 1, 26, "an action is one line of text"},
	} {
		_, err := ParseMove(tc.in)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != tc.line || pe.Col != tc.col || !contains(pe.Msg, tc.msg) {
			t.Errorf("ParseMove(%q) = %v; want line %d column %d %q", tc.in, err, tc.line, tc.col, tc.msg)
		}
	}
}

func mustCell(s string) Cell {
	c, err := ParseCell(s)
	if err != nil {
		panic(err)
	}
	return c
}

// FuzzParseMove: no input makes the parser panic, and what it reads formats to text it
// reads back the same.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"place A3 push NE 1 accumulator\nmagnet C5", "play Lambada C4 C5\noperator D2 D3 D4\ndraw face-up 1, deck",
		"exchange Tandem Saboteur: face-up 2, deck", "play Car-Racket\nplace E4 push S", "actions:\n  - place C5\ndraw: deck\n",
		"pass\npass", "draw deck keep Tandem", "place C5 no push", "operator", "play", "exchange : :"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMove(s)
		if err != nil {
			return
		}
		again, err := ParseMove(Format(m))
		if err != nil {
			t.Fatalf("Format(%q) = %q does not parse: %v", s, Format(m), err)
		}
		if Format(again) != Format(m) {
			t.Fatalf("round trip: %q → %q", Format(m), Format(again))
		}
	})
}

// TestMoveJSON: a Move survives JSON (the judge stores moves that way).
func TestMoveJSON(t *testing.T) {
	m, err := ParseMove("play Double Hit\nplace E4 push S SE\ndraw face-up 2, deck keep Tandem")
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range []Move{m, {Actions: []Action{{Kind: ActExchange, Give: [2]Card{Tandem, Lambada}, From: [2]Source{3, Deck}}, {Kind: ActOperator, Cells: []Cell{mustCell("D2"), mustCell("D3")}}}}} {
		b, err := json.Marshal(mv)
		if err != nil {
			t.Fatal(err)
		}
		var back Move
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, mv) {
			t.Fatalf("JSON round trip: %s → %+v, want %+v", b, back, mv)
		}
	}
}
