package adjudicator

import (
	"fmt"
	"slices"
)

// Rules are the numbers and switches of a ruleset, kept as data (rules README: "keep
// every such number as data, not as code").
type Rules struct {
	Name          string `json:"name"`
	HandSize      int    `json:"hand_size"`      // 9 cards minus damage (rules README, A turn 1)
	DestroyAt     int    `json:"destroy_at"`     // 10 damage destroys (A turn 2)
	ReentryDamage int    `json:"reentry_damage"` // re-enter with 2 damage (A turn 5)
	BaseLives     int    `json:"base_lives"`     // 3 lives (Lives)
	// LifePerPlayers and LifePerBoards add a life from that many players / boards
	// (Crash & Burn); 0 switches the bonus off.
	LifePerPlayers int  `json:"life_per_players"`
	LifePerBoards  int  `json:"life_per_boards"`
	MaxOptions     int  `json:"max_options"`  // at most 3 held (Option cards)
	SharedStart    bool `json:"shared_start"` // postal: every robot starts virtual on start 1
	// Elements is the order of phase c, by step name: express, belts, pushers, gears,
	// crushers. A new board element adds a step here.
	Elements []string `json:"elements"`
}

// PostalRules is the default ruleset: the 1997 postal rules on the 1994 game.
func PostalRules() Rules {
	return Rules{
		Name:           "postal",
		HandSize:       9,
		DestroyAt:      10,
		ReentryDamage:  2,
		BaseLives:      3,
		LifePerPlayers: 5,
		LifePerBoards:  5,
		MaxOptions:     3,
		SharedStart:    true,
		Elements:       []string{"express", "belts", "pushers", "gears", "crushers"},
	}
}

// Lives is the number of lives each robot starts with: 3, one more with 5+ players, one
// more with 5+ boards (rules README, Lives; Crash & Burn).
func (r Rules) Lives(players, boards int) int {
	n := r.BaseLives
	if r.LifePerPlayers > 0 && players >= r.LifePerPlayers {
		n++
	}
	if r.LifePerBoards > 0 && boards >= r.LifePerBoards {
		n++
	}
	return n
}

// MaxRobots is the most robots a game can hold (Crash & Burn: up to 8).
const MaxRobots = 8

// Setup is what is fixed for a whole game: the course, the deck, the rules, the seed,
// and the effects of option cards. It is read-only once made.
type Setup struct {
	Course  *Course
	Deck    *Deck
	Rules   Rules
	Seed    uint64
	Options []string // the option deck's cards, before shuffling
	Effects []Effect // option card effects (none in the base game)

	emitters []emitter
	beamAt   []int8 // per square: beams of board lasers reaching it on an empty board
}

type emitter struct {
	at    Pos
	dir   Dir
	beams int
	path  []Pos // squares the beam can reach on an empty board, emitter square first
}

// NewSetup checks the course and rules and prepares the static parts of the floor.
func NewSetup(c *Course, rules Rules, seed uint64, options []string) (*Setup, error) {
	if c == nil {
		return nil, fmt.Errorf("setup: no course")
	}
	if err := c.Check(); err != nil {
		return nil, err
	}
	for _, e := range rules.Elements {
		if elementStep(e) == nil {
			return nil, fmt.Errorf("setup: unknown board element step %q", e)
		}
	}
	s := &Setup{Course: c, Deck: StandardDeck(), Rules: rules, Seed: seed, Options: options}
	s.prepare()
	return s, nil
}

func (s *Setup) prepare() {
	b := s.Course.Board
	s.emitters = nil
	s.beamAt = make([]int8, len(b.Squares))
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			p := Pos{x, y}
			l := b.At(p).Laser
			if l.Beams <= 0 {
				continue
			}
			e := emitter{at: p, dir: l.Dir, beams: l.Beams}
			for q := p; b.In(q); q = q.Step(l.Dir) {
				e.path = append(e.path, q)
				s.beamAt[q.Y*b.W+q.X] += int8(l.Beams)
				if b.Blocked(q, l.Dir) {
					break
				}
			}
			s.emitters = append(s.emitters, e)
		}
	}
}

// Orders are one robot's orders for a turn: the program and the decider that answers
// its run-time decisions.
type Orders struct {
	// Program is the card in each register. A locked register may hold 0 (it runs the
	// locked card) or the locked card itself.
	Program [Registers]int
	// Decider answers decisions; nil means Defaults.
	Decider Decider
}

// ProgramError is one thing wrong with a program.
type ProgramError struct {
	Register int // 1–5, 0 for the program as a whole
	Card     int
	Msg      string
}

func (e ProgramError) Error() string {
	if e.Register == 0 {
		return e.Msg
	}
	return fmt.Sprintf("register %d: %s", e.Register, e.Msg)
}

// CheckProgram lists everything wrong with a robot's program against its hand and
// locked registers. An empty list means the program is legal.
func (s *Setup) CheckProgram(st *State, robot int, prog [Registers]int) []ProgramError {
	var errs []ProgramError
	r := &st.Robots[robot]
	if r.Out {
		return []ProgramError{{Msg: "the robot is out of the race"}}
	}
	if r.Power == PowerDown {
		for i, c := range prog {
			if c != 0 {
				errs = append(errs, ProgramError{Register: i + 1, Card: c, Msg: "the robot is powered down this turn and runs no program"})
			}
		}
		return errs
	}
	var used [Registers]int // used[k]: the card placed in register k+1 so far
	for i, c := range prog {
		reg := i + 1
		if r.IsLocked(reg) {
			if c != 0 && c != r.Registers[i] && r.Registers[i] == 0 {
				errs = append(errs, ProgramError{Register: reg, Card: c, Msg: fmt.Sprintf("register %d is locked and holds no card", reg)})
			} else if c != 0 && c != r.Registers[i] {
				errs = append(errs, ProgramError{Register: reg, Card: c, Msg: fmt.Sprintf("register %d is locked with P%d", reg, r.Registers[i])})
			}
			continue
		}
		if c == 0 {
			errs = append(errs, ProgramError{Register: reg, Msg: "no card"})
			continue
		}
		if s.Deck.Kind(c) == NoCard {
			errs = append(errs, ProgramError{Register: reg, Card: c, Msg: fmt.Sprintf("P%d is not a card", c)})
			continue
		}
		if !containsInt(r.Hand, c) {
			errs = append(errs, ProgramError{Register: reg, Card: c, Msg: fmt.Sprintf("P%d is not in your hand", c)})
			continue
		}
		if prev := slices.Index(used[:], c); prev >= 0 {
			errs = append(errs, ProgramError{Register: reg, Card: c, Msg: fmt.Sprintf("P%d is already in register %d", c, prev+1)})
			continue
		}
		used[i] = c
	}
	return errs
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
