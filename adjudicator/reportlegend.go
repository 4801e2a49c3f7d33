package adjudicator

import (
	"slices"
	"strings"
)

// RenderReportLegend is the legend of a turn report's map (issue 22): one legend, in
// the words of the game's rules, naming only the elements course c has. A 2023 game
// (seed 004) speaks of checkpoints, green and blue belts, push panels, batteries and
// reboot tokens, and a fall that reboots; a postal one (seed 003) of flags, wrenches and
// a fall that destroys. The robots and devices follow, as RenderStateLegend lists them.
func RenderReportLegend(c *Course, st *State) string {
	own := c.Rules == "2023" || slices.ContainsFunc(st.Robots, func(r Robot) bool { return r.Mat != nil })
	return courseLegend(c, st, own)
}

// courseLegend is the one legend of course c with the robots and devices of st, in the
// words of the 2023 rules when own, else the postal ones.
func courseLegend(c *Course, st *State, own bool) string {
	has := func(f func(s *Square) bool) bool {
		if c.Board == nil {
			return false
		}
		for i := range c.Board.Squares {
			if f(&c.Board.Squares[i]) {
				return true
			}
		}
		return false
	}
	var sb strings.Builder
	line := func(on bool, s string) {
		if on {
			sb.WriteString("  " + s + "\n")
		}
	}
	sb.WriteString("Legend (north is up; square x,y counts from 0,0 at the top left):\n")
	pit, edge, flag, belt, express, pusher := "XXX  pit: a robot entering it is destroyed", ". :  open board edge: falling off destroys",
		"[1]  flag 1 (touch them in order)", ">    belt carrying east (^ > v <)", ">>   express belt", "P>o  pusher pushing east"
	if own {
		pit, edge, flag, belt, express, pusher = "XXX  pit: a robot falling in reboots", ". :  open board edge: a robot going over it reboots; lasers pass it",
			"[1]  checkpoint 1 (reach them in order; what lies under one does not act)", ">    green belt carrying east (^ > v <): moves a robot 1",
			">>   blue belt: moves a robot 2", "P>o  push panel pushing east"
	}
	line(true, ".    plain floor")
	line(has(func(s *Square) bool { return s.Floor == FloorPit }), pit)
	line(has(func(s *Square) bool { return s.Belt.Kind == BeltNormal }), belt)
	line(has(func(s *Square) bool { return s.Belt.Kind == BeltExpress }), express)
	line(has(func(s *Square) bool { return s.Belt.Kind != NoBelt && s.Belt.TurnFrom != 0 }), "*>   curve or merge: turns a robot a belt carries onto it from the side")
	line(has(func(s *Square) bool { return s.Gear == TurnLeft }), "(L)  gear turning left")
	line(has(func(s *Square) bool { return s.Gear == TurnRight }), "(R)  gear turning right")
	pushers, crushers := has(func(s *Square) bool { return s.Pusher.Registers != 0 }), has(func(s *Square) bool { return s.Crusher != 0 })
	line(pushers, pusher)
	line(crushers, "C e  crusher (C>e: crusher on an east belt)")
	line(pushers || crushers, "     the last letter says when it works: o in registers 1,3,5; e in 2,4;\n       * other registers (see the board file)")
	line(has(func(s *Square) bool { return s.Laser.Beams > 0 }), "Lv2  laser firing south, 2 beams;  - : and # mark beams over plain floor")
	line(!own && has(func(s *Square) bool { return s.Repair == 1 }), "w1   single wrench (repairs 1)")
	line(!own && has(func(s *Square) bool { return s.Repair == 2 }), "w2   double wrench (repairs 2, or an option)")
	line(has(func(s *Square) bool { return s.Battery }), "(+)  battery: +1 energy to a robot ending a register here (at most 10)")
	line(has(func(s *Square) bool { return s.Reboot.On }), "R>b  reboot token: robots that fell re-enter here; one found on it is pushed east")
	line(len(c.Flags) > 0, flag)
	line(len(c.Starts) > 0, "S1   start square 1")
	line(has(func(s *Square) bool { return s.Walls != 0 }), "---  and | are walls")
	line(true, edge)
	robot := "A>   robot A facing east (^ > v <); the third character shows its square;\n       a lowercase letter (a>) is a virtual robot; AB is two robots on a square"
	if !slices.ContainsFunc(st.Robots, func(r Robot) bool { return r.Virtual }) {
		robot = "A>   robot A facing east (^ > v <); the third character shows its square;\n       AB is two robots on a square"
	}
	line(len(st.Robots) > 0, robot)
	// The robots and the devices: what RenderStateLegend lists after its symbols.
	rest := RenderStateLegend(st)
	if k := strings.Index(rest, "Robots:\n"); k >= 0 {
		sb.WriteString(rest[k:])
	} else if k := strings.Index(rest, "Devices ("); k >= 0 {
		sb.WriteString(rest[k:])
	}
	return sb.String()
}
