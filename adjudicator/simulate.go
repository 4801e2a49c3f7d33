package adjudicator

import "fmt"

// Simulate plays one robot's program alone on the current board, the other robots
// standing where they are and holding fire (they can still be pushed): the forecast a
// player gets for a sheet, and the autopilot's inner loop. It returns the robot after
// the five registers (before the end of turn) and the events. st is not changed.
func Simulate(s *Setup, st *State, robot int, o Orders) (Robot, []Event, error) {
	if robot < 0 || robot >= len(st.Robots) {
		return Robot{}, nil, fmt.Errorf("simulate: no robot %d", robot)
	}
	if errs := s.CheckProgram(st, robot, o.Program); len(errs) > 0 {
		return Robot{}, nil, fmt.Errorf("simulate: %v", errs[0])
	}
	t := &turn{setup: s, st: st.Clone(), single: robot}
	t.orders = make([]Orders, len(st.Robots))
	t.orders[robot] = o
	t.playSingle()
	return t.st.Robots[robot], t.events, nil
}

func (t *turn) playSingle() {
	r := &t.st.Robots[t.single]
	if r.Power != PowerDown {
		for reg := 1; reg <= Registers; reg++ {
			if !r.IsLocked(reg) {
				r.Registers[reg-1] = t.orders[t.single].Program[reg-1]
			}
		}
	}
	for reg := 1; reg <= Registers && r.Active() && !t.st.Over; reg++ {
		t.runRegister(reg)
	}
}
