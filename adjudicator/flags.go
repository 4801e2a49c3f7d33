package adjudicator

import "sort"

// Phase e, flags and archive markers (seed 003, Checkpoints and Repair Sites; rules
// README, A turn 4e). Crash & Burn's differences are rules settings: Rules.PassTouches
// (passFlag) and Rules.ArchiveChoice (moveArchive).
//
//   - "A checkpoint is only touched if the robot occupies it at the end of one of the
//     movement phases. Passing through the checkpoint does NOT count." Flags are touched
//     in order: only the robot's next flag counts.
//   - A robot on any flag or repair site moves its archive marker there.
//   - The first robot to touch the last flag wins and the game is over at once. Ruling:
//     should two robots touch the last flag in the same register (possible only for
//     virtual robots sharing it), the one whose card in that register has the higher
//     priority wins, as it moved first; a robot with no card (powered down) comes after.
func (t *turn) touchFlags() {
	b := t.board()
	flags := t.setup.Course.Flags
	own := t.setup.Rules.Own()
	var finishers []int
	for i, hi := t.actors(); i < hi; i++ {
		r := &t.st.Robots[i]
		if !r.Active() || !b.In(r.Pos) {
			continue
		}
		if own && r.Power == PowerDown {
			continue // seed 004, Shutdown 7: a shut-down robot claims no checkpoint
		}
		if r.Flags < len(flags) && (flags[r.Flags] == r.Pos || t.reaches(i, flags[r.Flags])) {
			r.Flags++
			if i == t.single {
				t.flagAt = t.register
			}
			e := Event{Kind: EvFlag, Robot: r.Name, Amount: r.Flags, To: t.pos(flags[r.Flags-1])}
			if flags[r.Flags-1] != r.Pos {
				e.Option = "Mechanical Arm"
			}
			t.emit(e)
			if r.Flags == len(flags) {
				finishers = append(finishers, i)
			}
			t.scavenge(i, r.Flags) // seed 001, Scavenger Hunt (variants.go)
		}
		if own && t.setup.Rules.DynamicArchive && (b.At(r.Pos).Battery || t.course().FlagAt(r.Pos) > 0) && r.Archive != r.Pos {
			// seed 004, Dynamic Archiving: "Robots archive when ending on a Checkpoint or
			// Battery" (ruling R-ARCHIVE: a shut-down robot, which claims nothing, does
			// not archive either).
			r.Archive = r.Pos
			t.emit(Event{Kind: EvArchive, Robot: r.Name, To: t.pos(r.Pos)})
		}
		if own || t.bare(r.Pos) {
			continue // no flag or repair site here
		}
		if sq := b.At(r.Pos); (sq.Flag > 0 || sq.Repair > 0 || t.course().FlagAt(r.Pos) > 0) && r.Archive != r.Pos {
			t.moveArchive(i, sq.Flag > 0 || t.course().FlagAt(r.Pos) > 0)
		}
	}
	if len(finishers) == 0 || t.st.Over {
		return
	}
	reg := t.register - 1
	sort.SliceStable(finishers, func(a, c int) bool {
		if own {
			// seed 004, Winning the Game: the first robot to end a register on the final
			// checkpoint wins; ruling R-WIN-TIE: of two in one register, the one earlier
			// in the playing order.
			return t.tokenRank(finishers[a]) < t.tokenRank(finishers[c])
		}
		return t.st.Robots[finishers[a]].Registers[reg] > t.st.Robots[finishers[c]].Registers[reg]
	})
	w := &t.st.Robots[finishers[0]]
	t.st.Winner, t.st.Over = w.Name, true
	t.emit(Event{Kind: EvWin, Robot: w.Name, Amount: len(flags)})
}

func (t *turn) course() *Course { return t.setup.Course }

// moveArchive moves robot i's archive marker to its square. On a flag, with
// Rules.ArchiveChoice (seed 000, Reaching a Checkpoint: "may the player place his Safety
// Copy here"), the robot's orders may keep it where it is (ArchiveDecider). Repair sites
// always take the archive (seed 003, Repair Sites; seed 000 changes only checkpoints).
func (t *turn) moveArchive(i int, flag bool) {
	r := &t.st.Robots[i]
	if r.Archive == r.Pos {
		return
	}
	if flag && t.setup.Rules.ArchiveChoice {
		if ad, ok := t.decider(i).(ArchiveDecider); ok && !ad.MoveArchive(t.view(i)) {
			t.emit(Event{Kind: EvArchiveKept, Robot: r.Name, To: t.pos(r.Archive)})
			return
		}
	}
	r.Archive = r.Pos
	t.emit(Event{Kind: EvArchive, Robot: r.Name, To: t.pos(r.Pos)})
}

// passFlag touches robot i's next flag when it moves onto it, with Rules.PassTouches
// (seed 000, Reaching a Checkpoint: "whenever his Robot move over, or stays on, the next
// higher Checkpoint"). Ruling: any move onto the flag counts (own card, pushed, carried
// by a belt, sliding); touching it also offers the archive (moveArchive). Touching the
// last flag wins at once and ends the game, so the first robot over it wins.
func (t *turn) passFlag(i int) {
	r := &t.st.Robots[i]
	flags := t.setup.Course.Flags
	if r.Flags >= len(flags) || flags[r.Flags] != r.Pos || t.st.Over || !t.acts(i) {
		return
	}
	r.Flags++
	if i == t.single {
		t.flagAt = t.register
	}
	t.emit(Event{Kind: EvFlag, Robot: r.Name, Amount: r.Flags, To: t.pos(r.Pos)})
	t.scavenge(i, r.Flags) // seed 001, Scavenger Hunt (variants.go)
	t.moveArchive(i, true)
	if r.Flags == len(flags) {
		t.st.Winner, t.st.Over = r.Name, true
		t.emit(Event{Kind: EvWin, Robot: r.Name, Amount: len(flags)})
	}
}

// reaches reports whether an option lets robot i touch its next flag at flag from
// where it stands (FlagReacher: Mechanical Arm).
func (t *turn) reaches(i int, flag Pos) bool {
	if !t.has(i, hkFlag) {
		return false
	}
	for x, e := range t.fxOf(i) {
		if !t.actsAt(i, x, hkFlag) {
			continue
		}
		if f, ok := e.(FlagReacher); ok && f.Reaches(t.view(i), flag) {
			return true
		}
	}
	return false
}
