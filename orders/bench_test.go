package orders

import "testing"

// A typical sheet: header, program, two conditional orders.
var typicalSheet = []byte("Game: practice\r\nFred Turn 3\r\nP490 M2 670 L70 R80 B430\r\n" +
	"If I finish on 2 spanner repair & damage > 3 repair, else take option card.\r\n" +
	"reenter facing toward the next flag\r\n")

func BenchmarkParseValidate(b *testing.B) {
	setup, st := testGame(b)
	b.ReportAllocs()
	for b.Loop() {
		s, err := Parse(typicalSheet)
		if err != nil {
			b.Fatal(err)
		}
		st.Turn = 3
		rep := Validate(setup, st, "Fred", s)
		if !rep.OK() {
			b.Fatal(rep)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(typicalSheet); err != nil {
			b.Fatal(err)
		}
	}
}
