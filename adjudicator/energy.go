package adjudicator

// Energy (seed 004, Components; Batteries; Programming Cards: Power Up).
//
//   - Each robot has 0 to Rules.EnergyMax energy (10), starting with Rules.EnergyStart
//     (3).
//   - Power Up gains 1 energy. A robot ending a register on a battery gains 1 energy,
//     after the lasers and before the checkpoints. Energy beyond the maximum is lost.
//   - A shut-down robot gains no energy from batteries (seed 004, Shutdown 7). Ruling
//     R-BATTERY-COVER: a battery under a checkpoint is a board element under a checkpoint
//     and is inactive (round.go takes it off the floor).
//   - Ruling R-REBOOT-KEEPS: energy survives a reboot; seed 004 takes nothing else away.

// gainEnergy adds n energy to robot i, up to the maximum; an event says how much it has
// now. Nothing is recorded when the robot is already full.
func (t *turn) gainEnergy(i, n int, cause string) {
	r := &t.st.Robots[i]
	if r.Mat == nil || t.setup.Rules.EnergyMax == 0 {
		return
	}
	e := min(r.Mat.Energy+n, t.setup.Rules.EnergyMax)
	if e == r.Mat.Energy {
		return
	}
	r.Mat.Energy = e
	t.emit(Event{Kind: EvEnergy, Robot: r.Name, Amount: e, Cause: cause})
}

// chargeBatteries gives 1 energy to every robot ending the register on a battery, in the
// playing order.
func (t *turn) chargeBatteries() {
	b := t.board()
	n := len(t.st.Robots)
	for k := 0; k < n; k++ {
		i := (t.st.Priority + k) % n
		r := &t.st.Robots[i]
		if !r.Active() || r.Power == PowerDown || !b.In(r.Pos) || !t.acts(i) {
			continue
		}
		if b.At(r.Pos).Battery {
			t.gainEnergy(i, 1, "battery")
		}
	}
}
