package adjudicator

import (
	"fmt"
	"slices"
	"strings"
)

// The plain-text picture of a course, for reports mailed to players and for
// `rallyjudge board show`: ASCII only, one 3-character cell per square, walls drawn on
// the lines between cells, robots as a letter and an arrow. RenderLegend explains it.
//
//	     0   1   2
//	   . . . . . . . .      . : open board edge (falling off it destroys a robot)
//	 0 :[1] >  A>  :        --- | wall
//	   +---+ . . . . .
//
// A square shows its most telling element: flag, start, pit, crusher, laser, pusher,
// gear, belt, repair site, laser beam, floor, in that order.

// RenderText draws the course and the robots on it (robot i is letter 'A'+i; robots
// destroyed or out of the race are not drawn). The first line names the course.
func RenderText(c *Course, robots []Robot) string { return renderText(c, robots, nil) }

// RenderState is RenderText for a game's state: its robots and its devices (seed 001,
// Devices), each device a letter and an arrow in its square (a robot on it keeps the
// square and shows the device's letter third); RenderStateLegend explains them.
func RenderState(c *Course, st *State) string { return renderText(c, st.Robots, st.Devices) }

func renderText(c *Course, robots []Robot, devices []Device) string {
	b := c.Board
	var sb strings.Builder
	players := ""
	if c.MaxPlayers > 0 {
		players = fmt.Sprintf(", %d-%d players", c.MinPlayers, c.MaxPlayers)
	}
	name := c.Name
	if name == "" {
		name = "board"
	}
	flags := "flags" // a 2023 course counts checkpoints (seed 004)
	if c.Rules == "2023" || slices.ContainsFunc(robots, func(r Robot) bool { return r.Mat != nil }) {
		flags = "checkpoints"
	}
	fmt.Fprintf(&sb, "%s: %dx%d, %d %s, %d start squares%s\n", name, b.W, b.H, len(c.Flags), flags, len(c.Starts), players)
	if b.W <= 0 || b.H <= 0 || len(b.Squares) != b.W*b.H {
		return sb.String()
	}
	beams := beamMap(b)
	cells := make([]string, b.W*b.H)
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			p := Pos{x, y}
			cells[y*b.W+x] = cellGlyph(c, p, beams[y*b.W+x])
		}
	}
	// Devices over the squares, robots over the devices.
	devAt := map[Pos]byte{}
	for _, d := range devices {
		if !b.In(d.Pos) {
			continue
		}
		k := d.Pos.Y*b.W + d.Pos.X
		if _, two := devAt[d.Pos]; two {
			cells[k] = "**" + cells[k][2:]
			continue
		}
		devAt[d.Pos] = DeviceSymbol(d.Kind)
		cells[k] = string(DeviceSymbol(d.Kind)) + string(facingArrow(d.Facing)) + cells[k][2:]
	}
	here := map[Pos][]int{}
	var order []Pos
	for i := range robots {
		r := &robots[i]
		if !r.Active() || !b.In(r.Pos) {
			continue
		}
		if _, ok := here[r.Pos]; !ok {
			order = append(order, r.Pos)
		}
		here[r.Pos] = append(here[r.Pos], i)
	}
	for _, p := range order {
		ids := here[p]
		k := p.Y*b.W + p.X
		if len(ids) == 1 {
			r := &robots[ids[0]]
			under := underGlyph(c, p)
			if sym, ok := devAt[p]; ok {
				under = sym
			}
			cells[k] = string(robotLetter(ids[0], r.Virtual)) + string(facingArrow(r.Facing)) + string(under)
			continue
		}
		s := ""
		for n, i := range ids {
			if n == 2 && len(ids) > 3 {
				s += "+"
				break
			}
			s += string(robotLetter(i, robots[i].Virtual))
		}
		cells[k] = fmt.Sprintf("%-3s", s)
	}

	// Column numbers.
	sb.WriteString("   ")
	for x := 0; x < b.W; x++ {
		fmt.Fprintf(&sb, " %2d ", x)
	}
	sb.WriteByte('\n')
	for y := 0; y <= b.H; y++ {
		// The line above row y (or the bottom border when y == H).
		sb.WriteString("   ")
		for x := 0; x <= b.W; x++ {
			sb.WriteByte(cornerGlyph(b, x, y))
			if x < b.W {
				switch {
				case hWall(b, x, y):
					sb.WriteString("---")
				case y > 0 && y < b.H && tileEdge(b, Pos{x, y - 1}, South) != "":
					sb.WriteString(tileEdge(b, Pos{x, y - 1}, South))
				case y == 0 || y == b.H:
					sb.WriteString(" . ")
				default:
					sb.WriteString("   ")
				}
			}
		}
		sb.WriteByte('\n')
		if y == b.H {
			break
		}
		fmt.Fprintf(&sb, "%2d ", y)
		for x := 0; x <= b.W; x++ {
			switch {
			case vWall(b, x, y):
				sb.WriteByte('|')
			case x > 0 && x < b.W && tileEdge(b, Pos{x - 1, y}, East) != "":
				e := tileEdge(b, Pos{x - 1, y}, East)
				if e[0] == 'D' {
					sb.WriteByte('D') // a door: its registers are in the board file
				} else {
					sb.WriteByte(e[1])
				}
			case x == 0 || x == b.W:
				sb.WriteByte(':')
			default:
				sb.WriteByte(' ')
			}
			if x < b.W {
				sb.WriteString(cells[y*b.W+x])
			}
		}
		sb.WriteByte('\n')
	}
	sb.WriteString(tileKey(b))
	return trimLines(sb.String())
}

// tileKey explains the tile symbols a floor uses (the Grand Prix tiles and the Crash &
// Burn floor), one line each, under the picture; "" for a floor with none, so plain
// courses draw as before.
func tileKey(b *Board) string {
	fx := scanFloor(b)
	if fx == 0 && !slices.ContainsFunc(b.Squares, func(s Square) bool { return s.Drain }) {
		return ""
	}
	var sb strings.Builder
	sb.WriteString("Tiles on this floor:\n")
	line := func(on floorFx, s string) {
		if fx&on != 0 {
			sb.WriteString("  " + s + "\n")
		}
	}
	line(fxOil, "oil  oil slick: a robot stopping on it slides on; one starting on it\n       loses the first square of its move")
	line(fxPortal, "<1>  portal, pair 1: a robot moving in comes out of the other (not while\n       a robot stands on either)")
	line(fxLevels, "=!=  ledge (! on a vertical edge): a wall from below, 2 damage going down;\n       1 2 3 on a square: its level")
	line(fxLevels, "/^/  ramp (^ on a vertical edge): going up, an extra square; a robot\n       stopping on it slides back")
	line(fxRepulsor, "%%%  repulsor field (% vertical): throws a robot back as far as its card")
	line(fxDoor, "DoD  swing door (D vertical): a wall except in its registers\n       (o 1,3,5; e 2,4; * others: see the board)")
	line(fxChop, " $   chop shop: swap an option after a register; or draw one at turn end")
	line(fxFlamer, "F o  flamer: in its registers 1 damage entering it, 1 more standing in\n       it after the lasers")
	line(fxStomper, "K e  stomper: destroys a robot on it in its registers (K *: always)")
	// The Armed and Dangerous floor (seed 001).
	line(fxWater, " ~   water: a card played in it loses its first square")
	line(fxCurrent, "~>~  current flowing east (^ > v <): water that carries robots 1 square\n       after the belts")
	line(fxTeleporter, " T   teleporter: a card played on it jumps Back Up 2, Move 1 3, Move 2 4,\n       Move 3 5 squares")
	line(fxRandomizer, " ?   randomizer: a robot on it plays a random card instead of its own")
	if slices.ContainsFunc(b.Squares, func(s Square) bool { return s.Drain }) {
		sb.WriteString("  XDX  drain: a pit\n")
	}
	return sb.String()
}

// trimLines drops trailing blanks from every line (mail clients and diffs like that).
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// hWall reports a wall on the horizontal edge above row y (y == H: below the last row).
func hWall(b *Board, x, y int) bool {
	if y < b.H {
		return b.Blocked(Pos{x, y}, North)
	}
	return b.Blocked(Pos{x, b.H - 1}, South)
}

// vWall reports a wall on the vertical edge west of column x (x == W: east of the last).
func vWall(b *Board, x, y int) bool {
	if x < b.W {
		return b.Blocked(Pos{x, y}, West)
	}
	return b.Blocked(Pos{b.W - 1, y}, East)
}

// cornerGlyph is the character where four cells meet: + where a wall ends or turns,
// . on the open board edge, else blank.
func cornerGlyph(b *Board, x, y int) byte {
	if (x > 0 && hWall(b, x-1, y)) || (x < b.W && hWall(b, x, y)) ||
		(y > 0 && vWall(b, x, y-1)) || (y < b.H && vWall(b, x, y)) {
		return '+'
	}
	if x == 0 || y == 0 || x == b.W || y == b.H {
		return '.'
	}
	return ' '
}

// beamMap marks the squares board lasers cross, as the engine traces them (seed 003,
// Lasers: the beam starts on the emitter's square and stops at a wall): 1 for an
// east-west beam, 2 for a north-south one, 3 for both.
func beamMap(b *Board) []uint8 {
	out := make([]uint8, len(b.Squares))
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			l := b.At(Pos{x, y}).Laser
			if l.Beams <= 0 || l.Dir > West {
				continue
			}
			mark := uint8(1)
			if l.Dir == North || l.Dir == South {
				mark = 2
			}
			for q := (Pos{x, y}); b.In(q); q = q.Step(l.Dir) {
				out[q.Y*b.W+q.X] |= mark
				if b.BeamStops(q, l.Dir) {
					break
				}
			}
		}
	}
	return out
}

func facingArrow(d Dir) byte {
	switch d {
	case North:
		return '^'
	case East:
		return '>'
	case South:
		return 'v'
	case West:
		return '<'
	}
	return '?'
}

func robotLetter(i int, virtual bool) byte {
	c := byte('?')
	if i >= 0 && i < 26 {
		c = byte('A' + i)
	}
	if virtual && c != '?' {
		c += 'a' - 'A'
	}
	return c
}

// registerMark is o for registers 1, 3, 5, e for 2, 4, * for any other set.
func registerMark(s RegisterSet) byte {
	switch s {
	case RegisterSet(0).With(1).With(3).With(5):
		return 'o'
	case RegisterSet(0).With(2).With(4):
		return 'e'
	}
	return '*'
}

// cellGlyph is the 3 characters for the square at p with no robot on it.
func cellGlyph(c *Course, p Pos, beam uint8) string {
	s := c.Board.At(p)
	flag := s.Flag
	if flag == 0 {
		flag = c.FlagAt(p)
	}
	start := s.Start
	if start == 0 {
		for i, st := range c.Starts {
			if st.Pos == p {
				start = i + 1
				break
			}
		}
	}
	switch {
	case flag > 0 && flag < 10:
		return fmt.Sprintf("[%d]", flag)
	case flag >= 10:
		return fmt.Sprintf("F%02d", flag%100)
	case start > 0:
		return fmt.Sprintf("S%-2d", start%100)
	case s.Drain:
		return "XDX"
	case s.Floor == FloorPit:
		return "XXX"
	case s.Crusher != 0:
		arrow := byte(' ')
		if s.Belt.Kind != NoBelt {
			arrow = facingArrow(s.Belt.Dir)
		}
		return string([]byte{'C', arrow, registerMark(s.Crusher)})
	case s.Laser.Beams > 0:
		return fmt.Sprintf("L%c%d", facingArrow(s.Laser.Dir), s.Laser.Beams%10)
	case s.Pusher.Registers != 0:
		return string([]byte{'P', facingArrow(s.Pusher.Dir), registerMark(s.Pusher.Registers)})
	case s.Gear == TurnLeft:
		return "(L)"
	case s.Gear == TurnRight:
		return "(R)"
	case s.Belt.Kind != NoBelt:
		g := []byte{' ', facingArrow(s.Belt.Dir), ' '}
		if s.Belt.TurnFrom != 0 {
			g[0] = '*'
		}
		if s.Belt.Kind == BeltExpress {
			g[2] = g[1]
		}
		return string(g)
	case s.Repair > 0:
		return fmt.Sprintf("w%d ", s.Repair%10)
	case s.Reboot.On:
		return string([]byte{'R', facingArrow(s.Reboot.Dir), 'b'}) // 2023: reboot token
	case s.Battery:
		return "(+)" // 2023: battery
	case s.Portal > 0:
		return fmt.Sprintf("<%d>", s.Portal%10)
	case s.Stomper != 0:
		return string([]byte{'K', ' ', registerMark(s.Stomper)})
	case s.Flamer != 0:
		return string([]byte{'F', ' ', registerMark(s.Flamer)})
	case s.ChopShop:
		return " $ "
	case s.Oil:
		return "oil"
	case s.Teleporter:
		return " T "
	case s.Randomizer:
		return " ? "
	case s.Current != 0:
		return string([]byte{'~', facingArrow(Dir(s.Current - 1)), '~'})
	case s.Water:
		return " ~ "
	case beam == 1:
		return " - "
	case beam == 2:
		return " : "
	case beam == 3:
		return " # "
	case s.Level > 0:
		return fmt.Sprintf(" %c ", '0'+s.Level%10)
	}
	return " . "
}

// tileEdge is how RenderText draws the edge leaving p towards d (East or South) when a
// tile stands on it: a ledge "=!=", a ramp "/^/", a repulsor field "%%%", a swing door
// "DoD" (the middle letter its registers, as for pushers); "" for none. A vertical edge
// shows the middle character ("!", "^", "%"), a door "D".
func tileEdge(b *Board, p Pos, d Dir) string {
	q := p.Step(d)
	if !b.In(p) || !b.In(q) {
		return ""
	}
	sp, sq := b.At(p), b.At(q)
	switch {
	case sp.Door.Has(d):
		return "D" + string(registerMark(sp.Door.Open)) + "D"
	case sq.Door.Has(d.Back()):
		return "D" + string(registerMark(sq.Door.Open)) + "D"
	case b.repulsorAt(p, d):
		return "%%%"
	case sp.Level != sq.Level && b.HasRamp(p, d):
		return "/^/"
	case sp.Level != sq.Level:
		return "=!="
	}
	return ""
}

// underGlyph is the one character shown beside a robot for what it stands on.
func underGlyph(c *Course, p Pos) byte {
	s := c.Board.At(p)
	flag := s.Flag
	if flag == 0 {
		flag = c.FlagAt(p)
	}
	switch {
	case flag > 0 && flag < 10:
		return byte('0' + flag)
	case flag >= 10:
		return 'F'
	case s.Floor == FloorPit:
		return 'X'
	case s.Crusher != 0:
		return 'C'
	case s.Laser.Beams > 0:
		return 'L'
	case s.Pusher.Registers != 0:
		return 'P'
	case s.Gear != NoRotation:
		return 'G'
	case s.Belt.Kind != NoBelt:
		return facingArrow(s.Belt.Dir)
	case s.Repair > 0:
		return 'w'
	case s.Reboot.On:
		return 'R'
	case s.Battery:
		return '+'
	case s.Portal > 0:
		return '@'
	case s.Stomper != 0:
		return 'K'
	case s.Flamer != 0:
		return 'F'
	case s.ChopShop:
		return '$'
	case s.Oil:
		return 'o'
	case s.Teleporter:
		return 'T'
	case s.Randomizer:
		return '?'
	case s.Water:
		return '~'
	}
	return ' '
}

// RenderLegend explains RenderText's symbols and, given the robots drawn, lists each
// robot's letter, name, square and facing.
func RenderLegend(robots ...Robot) string {
	var sb strings.Builder
	sb.WriteString(`Legend (north is up; square x,y counts from 0,0 at the top left):
  .    plain floor                   XXX  pit: a robot entering it is destroyed
  >    belt carrying east (^ > v <)  >>   express belt
  *>   curve or merge: turns a robot a belt carries onto it from the side
  (L)  gear turning left             (R)  gear turning right
  P>o  pusher pushing east           C e  crusher (C>e: crusher on an east belt)
       the pusher's or crusher's last letter says when it works:
       o in registers 1,3,5; e in 2,4; * other registers (see the board file)
  Lv2  laser firing south, 2 beams;  - : and # mark beams over plain floor
  w1   single wrench (repairs 1)     w2   double wrench (repairs 2, or an option)
  [1]  flag 1 (touch them in order)  S1   start square 1
  ---  and | are walls               . :  open board edge: falling off destroys
  A>   robot A facing east (^ > v <); the third character shows its square;
       a lowercase letter (a>) is a virtual robot; AB is two robots on a square
`)
	own := slices.ContainsFunc(robots, func(r Robot) bool { return r.Mat != nil })
	if own {
		sb.WriteString(legend2023)
	}
	if len(robots) > 0 {
		sb.WriteString("Robots:\n")
		for i := range robots {
			r := &robots[i]
			if r.Mat != nil {
				sb.WriteString(robotLine2023(i, r))
				continue
			}
			var notes []string
			if r.Virtual {
				notes = append(notes, "virtual")
			}
			if r.Power == PowerDown {
				notes = append(notes, "powered down")
			}
			switch {
			case r.Out:
				notes = append(notes, "out of the race")
			case r.Destroyed:
				notes = append(notes, "destroyed")
			}
			where := fmt.Sprintf("at %v facing %v", r.Pos, r.Facing)
			if !r.Active() {
				where = "not on the board"
			}
			line := fmt.Sprintf("  %c  %-12s %s, %d damage, %d lives, %d flags", robotLetter(i, false), r.Name, where, r.Damage, r.Lives, r.Flags)
			if len(notes) > 0 {
				line += " (" + strings.Join(notes, ", ") + ")"
			}
			sb.WriteString(line + "\n")
		}
	}
	return sb.String()
}

// RenderStateLegend is RenderLegend for a game's state, with a line for each device on
// the board (seed 001, Devices) and what its letter means.
func RenderStateLegend(st *State) string {
	out := RenderLegend(st.Robots...)
	if len(st.Devices) == 0 {
		return out
	}
	var sb strings.Builder
	sb.WriteString(out)
	sb.WriteString("Devices (a letter and the way it faces; ** two devices on a square):\n")
	for _, d := range st.Devices {
		line := fmt.Sprintf("  %c%c  %-14s of %s at %v", DeviceSymbol(d.Kind), facingArrow(d.Facing), d.Kind, d.Owner, d.Pos)
		if d.Priority > 0 {
			line += fmt.Sprintf(", moves at priority %d", d.Priority)
		}
		if d.Target != nil {
			line += fmt.Sprintf(", target counter at %v", *d.Target)
		}
		if d.Virtual {
			line += " (virtual: only its owner meets it)"
		}
		sb.WriteString(line + "\n")
	}
	sb.WriteString(deviceKey(st.Devices))
	return sb.String()
}

// deviceKey says, once for each kind of device on the board, what it does.
func deviceKey(devices []Device) string {
	what := map[DeviceKind]string{
		DevMine:          "mine: explodes for 4 when a robot moves onto or over it",
		DevProximityMine: "proximity mine: explodes for 4 when a robot passes within a square",
		DevGoo:           "goo: holds a robot on it until it has tried to move 4 squares",
		DevBridge:        "bridge: robots cross the pit under it as open floor",
		DevTeleporter:    "portable teleporter: a teleporter for every robot",
		DevBigOne:        "The Big One: explodes for 64 at the start of the next turn",
		DevDrone:         "drone: flies 3 squares a register to its target counter, explodes for 2",
		DevMissile:       "missile: flies 2 squares a register, explodes for 4 on a robot or wall",
		DevBuzzBomb:      "buzz bomb: flies its five cards, explodes for 4 on a robot or wall",
	}
	var sb strings.Builder
	seen := map[DeviceKind]bool{}
	for _, d := range devices {
		if seen[d.Kind] || what[d.Kind] == "" {
			continue
		}
		seen[d.Kind] = true
		fmt.Fprintf(&sb, "  %c    %s\n", DeviceSymbol(d.Kind), what[d.Kind])
	}
	return sb.String()
}

// legend2023 is what RenderLegend adds for a game of the 2023 rules (seed 004): the same
// glyphs, named as seed 004 names them, and the 2023 elements.
const legend2023 = `2023 rules (seed 004):
  >    green belt: moves a robot 1   >>   blue belt: moves a robot 2
  P>o  push panel pushing east, in registers 1,3,5 (o) or 2,4 (e)
  R>b  reboot token: robots that fell re-enter here; one found on it is pushed east
  (+)  battery: +1 energy to a robot ending a register here (at most 10)
  [1]  checkpoint 1 (reach them in order; what lies under one does not act)
  . :  open board edge: a robot going over it reboots; lasers pass it
`

// robotLine2023 is a robot's legend line under the 2023 rules: its square, energy,
// checkpoints, upgrades and the damage cards it holds.
func robotLine2023(i int, r *Robot) string {
	where := fmt.Sprintf("at %v facing %v", r.Pos, r.Facing)
	switch {
	case r.Out:
		where = "out of the race"
	case r.Destroyed:
		where = "rebooting (off the board)"
	case r.Power == PowerDown:
		where += ", shut down"
	}
	held := 0
	for _, c := range r.Hand {
		if CardKind(c).Damage() {
			held++
		}
	}
	for _, hw := range r.Mat.Haywire {
		if hw != 0 {
			held++
		}
	}
	line := fmt.Sprintf("  %c  %-12s %s, energy %d, %d checkpoints", robotLetter(i, false), r.Name, where, r.Mat.Energy, r.Flags)
	if len(r.Options) > 0 {
		line += ", upgrades " + strings.Join(r.Options, ", ")
	}
	if held > 0 {
		line += fmt.Sprintf(", damage cards held: %d", held)
	}
	return line + "\n"
}

// RenderCourseLegend is the legend of course c (and the robots on it): one legend,
// naming only the elements the course has (RenderReportLegend), in the 2023 rules'
// words for a course of the 2023 rules or one with batteries or reboot tokens, even
// without robots, and where the docking bay lies (issue 22: a 2023 course printed the
// postal legend and then the 2023 one).
func RenderCourseLegend(c *Course, robots ...Robot) string {
	own := c.Rules == "2023" || slices.ContainsFunc(robots, func(r Robot) bool { return r.Mat != nil })
	if c.Board != nil && !own {
		own = slices.ContainsFunc(c.Board.Squares, func(s Square) bool { return s.Battery || s.Reboot.On })
	}
	out := courseLegend(c, &State{Robots: robots}, own)
	if !own {
		return out
	}
	for k, part := range c.Parts {
		if part.Board != "docking-bay" || c.Board == nil {
			continue
		}
		lo, hi, found := Pos{}, Pos{}, false
		for y := 0; y < c.Board.H; y++ {
			for x := 0; x < c.Board.W; x++ {
				if p := (Pos{x, y}); c.BoardOf(p) == k {
					if !found {
						lo, hi, found = p, p, true
					}
					lo = Pos{min(lo.X, x), min(lo.Y, y)}
					hi = Pos{max(hi.X, x), max(hi.Y, y)}
				}
			}
		}
		if found {
			line := fmt.Sprintf("  the docking bay (start board) is squares %v to %v\n", lo, hi)
			if k := strings.Index(out, "Robots:\n"); k >= 0 {
				out = out[:k] + line + out[k:]
			} else {
				out += line
			}
		}
	}
	return out
}
