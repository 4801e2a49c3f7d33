package picture

import (
	"image"
	"math"
	"slices"
)

// Bands of rows (issue 24 item 3). A reader's copy of a picture differs from the shared
// one only in the rows of their ring (you.go), so the shared picture is encoded in
// bands cut at the edges of the rows where a reader's copy may differ (GIF frames:
// animation.go, lzw.go; PNG: still.go), and a reader's copy encodes again only the
// bands whose rows came out different. Every band begins a new dictionary (GIF) or
// compressor (PNG), which costs bytes, so the cuts are only where a reader's copy can
// differ, and rows close together go in one band.

// rowSpan is the rows y0 to y1 (not included).
type rowSpan struct{ y0, y1 int }

// ringBoxes is where ringYou may draw on a picture with marks m for the reader of
// robot you ("": any reader), with a pixel to spare: the ring round each of the
// robot's spots, and the legend's key when the robot has a spot.
func ringBoxes(m youMarks, you string) []image.Rectangle {
	var out []image.Rectangle
	for _, s := range m.spots {
		if you == "" || s.name == you {
			out = append(out, spotBox(s))
		}
	}
	if len(out) > 0 && m.key != (image.Point{}) {
		out = append(out, keyBox(m.key))
	}
	return out
}

// spotBox holds the ring round spot s (youRing), with a pixel to spare.
func spotBox(s ringSpot) image.Rectangle {
	r := s.s * 0.62 // youRing's outer radius
	return image.Rect(int(math.Floor(s.cx-r))-1, int(math.Floor(s.cy-r))-1, int(math.Ceil(s.cx+r))+2, int(math.Ceil(s.cy+r))+2)
}

// keyBox holds the legend's key at k: its ring (radius 13*0.62 round k+(16,7)) and
// "you" after it.
func keyBox(k image.Point) image.Rectangle {
	return image.Rect(k.X+6, k.Y-2, k.X+50, k.Y+16)
}

// ringRows is the rows of ringBoxes.
func ringRows(m youMarks, you string) []rowSpan {
	var out []rowSpan
	for _, b := range ringBoxes(m, you) {
		out = append(out, rowSpan{b.Min.Y, b.Max.Y})
	}
	return out
}

// bandCuts cuts rows top to bottom (not included) into bands: each run of rows covered
// by spans is a band of its own, runs less than gap rows apart joined (and spans that
// overlap); a gap below zero cuts at the edge of every span. It returns the first row
// of each band, then bottom.
func bandCuts(top, bottom int, spans []rowSpan, gap int) []int {
	cuts := []int{top, bottom}
	if gap < 0 {
		for _, s := range spans {
			cuts = append(cuts, s.y0, s.y1)
		}
	} else {
		for _, s := range merge(slices.Clone(spans), gap) {
			cuts = append(cuts, s.y0, s.y1)
		}
	}
	for i := range cuts {
		cuts[i] = min(max(cuts[i], top), bottom)
	}
	slices.Sort(cuts)
	return slices.Compact(cuts)
}

// merge is spans in order, those that overlap or come less than gap rows apart
// joined.
func merge(spans []rowSpan, gap int) []rowSpan {
	slices.SortFunc(spans, func(a, b rowSpan) int { return a.y0 - b.y0 })
	var out []rowSpan
	for _, s := range spans {
		if n := len(out); n > 0 && s.y0 <= out[n-1].y1+gap {
			out[n-1].y1 = max(out[n-1].y1, s.y1)
			continue
		}
		out = append(out, s)
	}
	return out
}

// bandGap is how far apart two runs of rows of a GIF frame may be and still go in one
// band: a band begun costs a GIF frame about a hundred bytes (its dictionary starts
// again), about as much as encoding so many rows again costs a reader's copy in time.
// A PNG's bands cost it next to nothing: they are cut at every edge.
const bandGap = 32

// touches reports whether any of spans has a row in y0 to y1.
func touches(spans []rowSpan, y0, y1 int) bool {
	for _, s := range spans {
		if s.y0 < y1 && y0 < s.y1 {
			return true
		}
	}
	return false
}

// sameSpots says whether robot you's ring is drawn in the same places on pictures with
// marks a and b.
func sameSpots(a, b youMarks, you string) bool {
	return slices.Equal(ringBoxes(a, you), ringBoxes(b, you))
}

// names is every robot with a spot in m.
func names(m youMarks) []string {
	var out []string
	for _, s := range m.spots {
		if !slices.Contains(out, s.name) {
			out = append(out, s.name)
		}
	}
	return out
}
