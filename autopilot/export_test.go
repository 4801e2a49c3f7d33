package autopilot

// Alone is a Pilot for the same setup that plays its 2023 search's best program, not
// the best against the nearest rival (rival.go).
func (p *Pilot) Alone() *Pilot {
	c := *p
	c.alone = true
	return &c
}
