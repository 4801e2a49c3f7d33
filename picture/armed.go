package picture

import "github.com/rallyjudge/rallyjudge/adjudicator"

// The Armed and Dangerous floor (seed 001, Board Element Overview), drawn in the style of
// the other elements (docs/pictures.md):
//
//	water        the square's floor is light blue
//	current      light blue with a darker blue chevron pointing with the flow
//	teleporter   a green ring round a green dot
//	randomizer   a golden square with a dark "?"
//	drain        a pit with a dark blue ring in it (seed 001: drains act as pits)

// armedFloor draws what lies flat on the square: water and its current, a teleporter, a
// randomizer. A drain is drawn with the pits (drain).
func (p *painter) armedFloor(cv canvas, q adjudicator.Pos, s *adjudicator.Square) {
	x0, y0, x1, y1 := p.l.cellRect(q)
	cx, cy := p.l.centre(q)
	cs := float64(p.l.cs)
	if s.Water {
		cv.rect(x0+1, y0+1, x1, y1, cWater)
	}
	if s.Current != 0 {
		ux, uy := unit(adjudicator.Dir(s.Current - 1))
		px, py := -uy, ux
		for _, k := range []float64{-0.18, 0.12} {
			tx, ty := cx+ux*cs*(k+0.12), cy+uy*cs*(k+0.12)
			bx, by := cx+ux*cs*(k-0.08), cy+uy*cs*(k-0.08)
			cv.line(bx+px*cs*0.22, by+py*cs*0.22, tx, ty, 2, cCurrent)
			cv.line(bx-px*cs*0.22, by-py*cs*0.22, tx, ty, 2, cCurrent)
		}
	}
	if s.Teleporter {
		cv.ring(cx, cy, cs*0.34, 3, cTeleporter)
		cv.disc(cx, cy, cs*0.12, cTeleporter)
	}
	if s.Randomizer {
		cv.rect(x0+4, y0+4, x1-3, y1-3, cRandomizer)
		cv.text(x0+(p.l.cs-7)/2+1, y0+(p.l.cs-13)/2+1, "?", cInk, 0)
	}
}

// drain marks a pit that is a drain.
func (p *painter) drain(cv canvas, q adjudicator.Pos) {
	cx, cy := p.l.centre(q)
	cs := float64(p.l.cs)
	cv.ring(cx, cy, cs*0.3, 2, cDrain)
	cv.ring(cx, cy, cs*0.15, 2, cDrain)
}
