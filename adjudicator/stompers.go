package adjudicator

// Stompers (seed 000, "Activate Factory Elements"): "A Robot is destroyed if it stands on
// the space of a Stomper when it is active. A Stomper is active in the listed Program
// Steps. A Stomper without numbers is always active" (board token k alone). They act in
// phase c with the crushers ("The order in which the Factory Elements is activated stays
// the same"): the "stompers" step, after "crushers" in Rules.Elements. Crash & Burn's
// element tiles include crushers, which stay crushers (elements.go).

func (t *turn) runStompers() {
	if t.setup.fx&fxStomper == 0 {
		return
	}
	b := t.board()
	for i, hi := t.actors(); i < hi; i++ {
		r := &t.st.Robots[i]
		if !r.Active() || !b.In(r.Pos) {
			continue
		}
		if b.At(r.Pos).Stomper.Has(t.register) && t.effectElement(i, "stomper") {
			t.destroy(i, "stomper")
		}
	}
}
