package render

import "testing"

// BenchmarkBoard draws and encodes the mid-game fixture with its trails at Scale 1.
func BenchmarkBoard(b *testing.B) {
	s, o := load(b, "midgame", 2, 7, fixtures[1].want)
	b.ReportAllocs()
	size := 0
	for b.Loop() {
		png, err := Board(s, o)
		if err != nil {
			b.Fatal(err)
		}
		size = len(png)
	}
	b.ReportMetric(float64(size), "png-bytes")
}

// BenchmarkDraw draws the mid-game fixture with its trails at Scale 1, without encoding.
func BenchmarkDraw(b *testing.B) {
	s, o := load(b, "midgame", 2, 7, fixtures[1].want)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := draw(s, o); err != nil {
			b.Fatal(err)
		}
	}
}
