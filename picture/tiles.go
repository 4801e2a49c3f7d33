package picture

import (
	"fmt"
	"math"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The postal Grand Prix tiles (seed 003, "Extra Tiles For Grand Prix") and the Crash &
// Burn floor (seed 000), drawn in the style of the other elements (docs/pictures.md):
//
//	oil slick     a dark blotch on the floor
//	portal        a purple ring with its colour number
//	level         upper levels have lighter floor; ledges are thick brown lines on the
//	              edge; a ramp is a brown wedge across the edge, pointing uphill
//	repulsor      a cyan zigzag along the edge
//	swing door    a slate bar on its side, with the registers it is open
//	chop shop     a blue square with a white "$"
//	flamer        an orange flame, with its registers
//	stomper       a dark square plate with a cross, with its registers (none: always)

// allRegisters is a stomper with no numbers: always active (seed 000).
const allRegisters = adjudicator.RegisterSet(1<<1 | 1<<2 | 1<<3 | 1<<4 | 1<<5)

// floorTiles draws what lies flat on the square: oil, a chop shop.
func (p *painter) floorTiles(cv canvas, q adjudicator.Pos, s *adjudicator.Square) {
	cx, cy := p.l.centre(q)
	cs := float64(p.l.cs)
	if s.Oil {
		cv.disc(cx-cs*0.12, cy-cs*0.05, cs*0.24, cOil)
		cv.disc(cx+cs*0.14, cy+cs*0.08, cs*0.2, cOil)
		cv.disc(cx-cs*0.02, cy+cs*0.18, cs*0.14, cOil)
	}
	if s.ChopShop {
		x0, y0, x1, y1 := p.l.cellRect(q)
		cv.rect(x0+3, y0+3, x1-2, y1-2, cChop)
		cv.text(x0+(p.l.cs-7)/2+1, y0+(p.l.cs-13)/2+1, "$", cWhite, 0)
	}
}

// tileMachines draws the tiles that stand over the beams: portals, flamers, stompers.
func (p *painter) tileMachines(cv canvas, q adjudicator.Pos, s *adjudicator.Square) {
	cx, cy := p.l.centre(q)
	cs := float64(p.l.cs)
	x0, y0, _, _ := p.l.cellRect(q)
	if s.Portal != 0 {
		cv.ring(cx, cy, cs*0.36, math.Max(3, cs/9), cPortal)
		cv.ring(cx, cy, cs*0.22, 2, cPortal)
		t := fmt.Sprint(s.Portal)
		cv.text(x0+(p.l.cs-7*len(t))/2+1, y0+(p.l.cs-13)/2+1, t, cPortal, 0)
	}
	if s.Flamer != 0 {
		cv.poly(cFlamer, [2]float64{cx - cs*0.25, cy + cs*0.3}, [2]float64{cx, cy - cs*0.35}, [2]float64{cx + cs*0.25, cy + cs*0.3})
		cv.poly(cHit, [2]float64{cx - cs*0.1, cy + cs*0.3}, [2]float64{cx, cy - cs*0.05}, [2]float64{cx + cs*0.1, cy + cs*0.3})
	}
	if s.Stomper != 0 {
		h := cs * 0.32
		cv.fill(cx-h, cy-h, cx+h, cy+h, cStomper, func(px, py float64) bool { return true })
		cv.line(cx-h, cy-h, cx+h, cy+h, 2, cFloorEdge)
		cv.line(cx-h, cy+h, cx+h, cy-h, 2, cFloorEdge)
	}
}

// edgeTiles draws what stands on edges: ledges and ramps between levels, repulsor
// fields, swing doors.
func (p *painter) edgeTiles(cv canvas) {
	b := p.b
	t := float64(p.wallWidth())
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			q := adjudicator.Pos{X: x, Y: y}
			s := b.At(q)
			cx, cy := p.l.centre(q)
			half := float64(p.l.cs) / 2
			for d := adjudicator.North; d <= adjudicator.West; d++ {
				ux, uy := unit(d)
				ex, ey := cx+ux*half, cy+uy*half // the middle of the edge
				px, py := -uy*half, ux*half      // along the edge
				n := q.Step(d)
				// Levels: drawn from the upper square only, so each edge once.
				if b.In(n) && b.At(n).Level < s.Level && !b.Blocked(q, d) {
					if b.HasRamp(q, d) {
						cv.poly(cRamp, [2]float64{ex + px*0.8, ey + py*0.8}, [2]float64{ex - px*0.8, ey - py*0.8},
							[2]float64{ex - ux*half*0.5, ey - uy*half*0.5})
					} else {
						cv.line(ex+px, ey+py, ex-px, ey-py, t, cLedge)
					}
				}
				if s.Repulsors.Has(d) {
					k := 6
					for i := 0; i < k; i++ {
						a0, a1 := float64(i)/float64(k)*2-1, float64(i+1)/float64(k)*2-1
						o0, o1 := t*0.6, -t*0.6
						if i%2 == 1 {
							o0, o1 = o1, o0
						}
						cv.line(ex+px*a0-ux*o0, ey+py*a0-uy*o0, ex+px*a1-ux*o1, ey+py*a1-uy*o1, 2, cRepulsor)
					}
				}
				if s.Door.Side != 0 && adjudicator.Dir(s.Door.Side-1) == d {
					cv.line(ex+px*0.9, ey+py*0.9, ex-px*0.9, ey-py*0.9, t, cDoor)
					cv.line(ex+px*0.9, ey+py*0.9, ex-px*0.9, ey-py*0.9, 1, cWhite)
				}
			}
		}
	}
}
