package adjudicator

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
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
	// OptionDeck is which option cards the game deals (optiondeck.go): none, crash-burn,
	// armed-dangerous or both. Only cards whose effects are implemented are dealt.
	OptionDeck OptionDeck `json:"option_deck"`
	// OptionCards is the cards the game deals, fixed when the game is made (so a game
	// and its archive keep their deck when later versions implement more cards); nil
	// means DealtOptions(OptionDeck) as this version knows it.
	OptionCards []string `json:"option_cards,omitempty"`
	// Elements is the order of phase c, by step name: express, belts, currents, pushers,
	// gears, crushers, stompers. A new board element adds a step here.
	Elements []string `json:"elements"`

	// The parts of the 2023 rules (seed 004). Each zero value is the postal rule, so a
	// postal game's rules read and write as before. They come together (Check): a
	// ruleset with own decks has no priorities to order robots by, and so on.
	//
	// Cards "own": each robot has its own 20-card deck, cards are named by kind
	// (owndeck.go). Order "token": the priority token's holder acts first, then the
	// others clockwise (token.go). Damage "cards": damage is SPAM and Haywire cards,
	// not points (spam.go, haywire.go). Fall "reboot": a robot falling into a pit or off
	// the board reboots instead of being destroyed (reboot.go); it takes
	// ReentryDamage damage cards.
	Cards  string `json:"cards,omitempty"`
	Order  string `json:"order,omitempty"`
	Damage string `json:"damage,omitempty"`
	Fall   string `json:"fall,omitempty"`
	// EnergyStart and EnergyMax: energy 0–EnergyMax, starting at EnergyStart, gained on
	// batteries and by Power Up (energy.go). EnergyMax 0: no energy (seed 004, A Lighter
	// Game, or the postal rules).
	EnergyStart int `json:"energy_start,omitempty"`
	EnergyMax   int `json:"energy_max,omitempty"`
	// CheckpointCovers: board elements under a checkpoint are inactive (seed 004,
	// Checkpoints).
	CheckpointCovers bool `json:"checkpoint_covers,omitempty"`
	// EdgeWalls: the board's outer edges are walls, nobody falls off (seed 004, A Less
	// Deadly Game).
	EdgeWalls bool `json:"edge_walls,omitempty"`
	// DiscardSpam: SPAM cards in hand are discarded with the rest of the hand after
	// programming (seed 004, A Less SPAM-y Game).
	DiscardSpam bool `json:"discard_spam,omitempty"`
	// Lighter: no upgrades, no energy, no batteries (seed 004, A Lighter Game); energy
	// start and maximum are then 0. DynamicArchive: a robot ending a register on a
	// checkpoint or battery puts its archive token there and reboots there rather than on
	// a reboot token (seed 004, Dynamic Archiving; reboot.go).
	Lighter        bool `json:"lighter,omitempty"`
	DynamicArchive bool `json:"dynamic_archive,omitempty"`
	// RobotLaser is what a robot's laser deals under the 2023 rules (spam.go):
	// RobotLaserSpam, the first SPAM from the top of the damage deck (ruling
	// R-ROBOT-LASER-SPAM: seed 004's Robot Lasers deal "1 SPAM card" where its Board
	// Lasers draw from the damage deck); "" the top card, SPAM or Haywire as it comes
	// (ruling R-DAMAGE-MIX as it stood before), which games made before the ruling
	// keep: their stored rules have no such key, so they and their archives replay as
	// they were played.
	RobotLaser string `json:"robot_laser,omitempty"`
	// AfterLasers are the steps right after the lasers: flamers (seed 000, "the Flamers
	// activate directly after the Lasers").
	AfterLasers []string `json:"after_lasers"`
	// PassTouches: a robot touches its next flag by moving over it as well as by ending a
	// phase on it (seed 000, Reaching a Checkpoint: "move over, or stays on"); false is
	// the postal rule (seed 003, Checkpoints: "Passing through the checkpoint does NOT
	// count"). flags.go.
	PassTouches bool `json:"pass_touches"`
	// ArchiveChoice: a robot reaching a flag may keep its archive where it is (seed 000:
	// "may the player place his Safety Copy here"; the order "keep archive"); false is
	// the postal rule, where the flag always becomes the archive (seed 003). flags.go.
	ArchiveChoice bool `json:"archive_choice"`
	// Tiles are element tiles laid on empty squares of the course for this game (seed
	// 000, "Factory Elements as tiles"), as "X,Y:TOKEN" words (tiles.go); "" none.
	Tiles string `json:"tiles"`
	// Landing is what a robot falling down a ledge onto another robot does (levels.go).
	// "" is seed 003's Grand Prix rule (LEDGES: the robot landed on is pushed on and
	// takes 2 damage too); "next" is seed 001's (Ledges, Landing: the falling robot comes
	// down on the next square along its way without a robot, and only it is damaged).
	Landing string `json:"landing"`
	// OptionPackage, TurboWrenches, ScavengerHunt and BioBots are seed 001's option
	// variants (variants.go): "standard" deals each robot one option card before the
	// game, "deluxe" three of which it keeps one; Turbo Wrenches lets a wrench site give
	// option cards instead of repairs; Scavenger Hunt 1 or 2 lays a pile of option cards
	// at each flag but the last (2: the player to the left chooses); Bio-Bots gives every
	// robot a Bio Option.
	OptionPackage string `json:"option_package"`
	TurboWrenches bool   `json:"turbo_wrenches"`
	ScavengerHunt int    `json:"scavenger_hunt,omitempty"` // omitted when off: archives of other games keep their bytes
	BioBots       bool   `json:"bio_bots,omitempty"`
}

// Rules2023 is the ruleset of the current edition (seed 004): own decks, the priority
// token, energy, SPAM and Haywire, reboot tokens, shutdown, the upgrade phase and the
// twelve upgrades (upgrades.go); the variants are settings (Lighter, EdgeWalls,
// DiscardSpam, DynamicArchive). Its register order is seed 004's: blue belts, green
// belts, push panels, gears, board lasers, robot lasers, batteries, checkpoints. See
// docs/rules-2023.md.
func Rules2023() Rules {
	return Rules{
		Name:             "2023",
		HandSize:         9, // seed 004, Phase 2: draw until you have 9 cards in hand
		ReentryDamage:    2, // seed 004, Rebooting 4: draw 2 damage cards
		Elements:         []string{"blue", "green", "pushers", "gears"},
		Cards:            "own",
		Order:            "token",
		Damage:           "cards",
		Fall:             "reboot",
		EnergyStart:      3,  // seed 004, Key Differences 6: energy starts at 3
		EnergyMax:        10, // seed 004, Batteries: maximum 10
		CheckpointCovers: true,
		RobotLaser:       RobotLaserSpam, // ruling R-ROBOT-LASER-SPAM (spam.go)
	}
}

// RobotLaserSpam is Rules.RobotLaser for robot lasers dealing SPAM cards (spam.go).
const RobotLaserSpam = "spam"

// Rulesets lists the rulesets a game can be played with, default first (an explicit
// list, as godip's OrderedVariants).
func Rulesets() []Rules { return []Rules{PostalRules(), Rules2023()} }

// RulesByName is the ruleset called name ("postal", "2023"); "" is the postal rules.
func RulesByName(name string) (Rules, error) {
	if name == "" {
		return PostalRules(), nil
	}
	var names []string
	for _, r := range Rulesets() {
		if r.Name == name {
			return r, nil
		}
		names = append(names, r.Name)
	}
	return Rules{}, fmt.Errorf("rules: unknown ruleset %q (want %s)", name, strings.Join(names, " or "))
}

// Own reports whether the rules are the 2023 rules' parts (own decks, token, damage
// cards, reboot), which Check insists come together.
func (r *Rules) Own() bool { return r.Cards == "own" }

// Check refuses rules that cannot be played: unknown values, parts of the 2023 rules
// without the others, numbers out of range. Rules come from stored games and archives,
// so they are outside input.
func (r Rules) Check() error {
	named := false
	for _, k := range Rulesets() {
		if k.Name == r.Name {
			named = true
			if k.Own() != r.Own() {
				return fmt.Errorf("rules: %q names the %s rules but the parts are another ruleset's", r.Name, k.Name)
			}
		}
	}
	if !named && r.Name != "" {
		if _, err := RulesByName(r.Name); err != nil {
			return err
		}
	}
	for _, f := range []struct{ name, got, want string }{
		{"cards", r.Cards, "own"}, {"order", r.Order, "token"}, {"damage", r.Damage, "cards"}, {"fall", r.Fall, "reboot"},
	} {
		if f.got != "" && f.got != f.want {
			return fmt.Errorf("rules: %s %q (want \"\" or %q)", f.name, f.got, f.want)
		}
		if (f.got != "") != r.Own() {
			return fmt.Errorf("rules: cards \"own\", order \"token\", damage \"cards\" and fall \"reboot\" are one ruleset (seed 004) and come together")
		}
	}
	if err := r.checkVariants(); err != nil { // variants.go
		return err
	}
	if r.Landing != "" && r.Landing != "next" {
		return fmt.Errorf("rules: landing %q (want \"\" for seed 003's push or \"next\" for seed 001's next open square)", r.Landing)
	}
	if r.HandSize < Registers || r.HandSize > 20 {
		return fmt.Errorf("rules: hand size %d (want %d to 20)", r.HandSize, Registers)
	}
	if !r.Own() {
		// an impossible game is refused, not played: damage that destroys nothing or
		// comes before any hit, no lives, a bonus life or an option hand out of reach
		switch {
		case r.DestroyAt < 1 || r.DestroyAt > 99:
			return fmt.Errorf("rules: destroy_at %d (want 1 to 99)", r.DestroyAt)
		case r.BaseLives < 1 || r.BaseLives > 99:
			return fmt.Errorf("rules: base_lives %d (want 1 to 99)", r.BaseLives)
		case r.LifePerPlayers < 0 || r.LifePerPlayers > MaxRobots:
			return fmt.Errorf("rules: life_per_players %d (want 0, for none, to %d)", r.LifePerPlayers, MaxRobots)
		case r.LifePerBoards < 0 || r.LifePerBoards > 64:
			return fmt.Errorf("rules: life_per_boards %d (want 0, for none, to 64)", r.LifePerBoards)
		case r.MaxOptions < 0 || r.MaxOptions > 99:
			return fmt.Errorf("rules: max_options %d (want 0 to 99)", r.MaxOptions)
		}
	}
	if r.ReentryDamage < 0 || r.ReentryDamage > 10 {
		return fmt.Errorf("rules: re-entry damage %d (want 0 to 10)", r.ReentryDamage)
	}
	if r.EnergyMax < 0 || r.EnergyMax > 99 || r.EnergyStart < 0 || r.EnergyStart > r.EnergyMax {
		return fmt.Errorf("rules: energy starts at %d with a maximum of %d (want 0 <= start <= maximum <= 99)", r.EnergyStart, r.EnergyMax)
	}
	if r.RobotLaser != "" && r.RobotLaser != RobotLaserSpam {
		return fmt.Errorf("rules: robot laser %q (want %q, or \"\" for a damage card drawn as it comes)", r.RobotLaser, RobotLaserSpam)
	}
	if !r.Own() && (r.EnergyMax > 0 || r.CheckpointCovers || r.EdgeWalls || r.DiscardSpam || r.Lighter || r.DynamicArchive || r.RobotLaser != "") {
		return fmt.Errorf("rules: energy, checkpoint covers, edge walls, discard spam, lighter, dynamic archive and robot laser belong to the 2023 rules")
	}
	if r.Lighter && r.EnergyMax != 0 {
		return fmt.Errorf("rules: the lighter game has no energy (energy_max 0)")
	}
	if r.Own() && (r.MaxOptions != 0 || r.SharedStart || r.BaseLives != 0) {
		return fmt.Errorf("rules: the 2023 rules have no option cards, shared start or lives")
	}
	return nil
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
		OptionDeck:     DeckCrashBurn,
		Elements:       []string{"express", "belts", "currents", "pushers", "gears", "crushers", "stompers"},
		AfterLasers:    []string{"flamers"},
	}
}

// Set changes the setting with this JSON name ("pass_touches", "max_options", "tiles"
// ...) to the value written: true or false for a switch, a number, a word, or step
// names joined by commas for a list ("elements=express,belts,gears"). Game creation and
// scenarios set rules this way; NewSetup checks the result.
func (r *Rules) Set(key, value string) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	old, ok := m[key]
	if !ok {
		// A setting left out of the JSON when zero (omitempty) is still a setting.
		old, ok = zeroSetting(key)
	}
	if !ok || key == "name" {
		var names []string
		for _, k := range settingKeys() {
			if k != "name" {
				names = append(names, k)
			}
		}
		slices.Sort(names)
		return fmt.Errorf("unknown rules setting %q (want one of %s)", key, strings.Join(names, ", "))
	}
	var v any
	switch {
	case string(old) == "true" || string(old) == "false":
		bv, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("%s: want true or false, got %q", key, value)
		}
		v = bv
	case len(old) > 0 && old[0] == '[' || string(old) == "null":
		var list []string
		for _, w := range strings.Split(value, ",") {
			if w = strings.TrimSpace(w); w != "" {
				list = append(list, w)
			}
		}
		v = list
	case len(old) > 0 && old[0] == '"':
		v = value
	default:
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			return fmt.Errorf("%s: want a number, got %q", key, value)
		}
		v = n
	}
	m[key], _ = json.Marshal(v)
	b, _ = json.Marshal(m)
	next := *r
	if err := json.Unmarshal(b, &next); err != nil {
		return fmt.Errorf("%s: %v", key, err)
	}
	*r = next
	return nil
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

// Dealt is the option cards a game with these rules deals (OptionCards, else the
// implemented cards of OptionDeck), less Bio Option with Bio-Bots (seed 001, Bio-Bots:
// "Remove Bio Option from the option card deck"). Under the 2023 rules it is the
// upgrade deck (upgrades.go, ruling R-UPGRADE-DECK), none in the lighter game, as
// NewSetup deals with no options given: an archive or a judge building the setup from
// the rules alone gets the same deck.
func (r Rules) Dealt() []string {
	if r.Own() && r.OptionCards == nil {
		if r.Lighter {
			return []string{}
		}
		return upgradeDeck()
	}
	cards := r.OptionCards
	if cards == nil {
		cards = DealtOptions(r.OptionDeck)
	}
	if r.BioBots && slices.Contains(cards, BioOption) {
		cards = slices.DeleteFunc(slices.Clone(cards), func(c string) bool { return c == BioOption })
	}
	return cards
}

// MaxRobots is the most robots a game can hold (Crash & Burn: up to 8).
const MaxRobots = 8

// Setup is what is fixed for a whole game: the course, the deck, the rules, the seed,
// and the effects of option cards. It is read-only once made.
type Setup struct {
	Course  *Course
	Deck    *Deck
	Seed    uint64
	Options []string // the option deck's cards, before shuffling
	Effects []Effect // option card effects in play (effects.go); NewSetup puts every implemented one
	// PileTop and DealTop stack the postal deck for a rules scenario (the scenario lines
	// "pile:" and "deal:", docs/scenarios.md): the cards put, in this order, on top of
	// the turn's shuffled draw pile that options and randomizers draw from
	// (drawFromPile), and of the deck shuffled for the deal at the end of the turn
	// (deal: hands in seat order, then what Recompile or a Buzz Bomb draws). A card not
	// in that pile is passed over. Games leave both empty: the seed alone orders the
	// cards.
	PileTop, DealTop []int
	// OptionsInOrder keeps the option deck in the order Options lists it, top first,
	// when a new game is made (a rules scenario's "options:" line with "game: new");
	// games shuffle it by the seed.
	OptionsInOrder bool

	emitters []emitter
	beamAt   []int8 // per square: beams of board lasers reaching it on an empty board
	// beamRefs[beamFrom[sq]:beamFrom[sq+1]] are the board lasers whose path holds square
	// sq, each with the square's place in that path (fireLasers looks from the robots).
	beamFrom []int32
	beamRefs []beamRef
	cards    CardSet // the 2023 card set (Rules.Own)
	fx       floorFx // the tiles the floor holds (floormove.go)
	// steps and afterLasers are Rules.Elements and Rules.AfterLasers resolved once, the
	// steps of tiles the floor does not have left out (they would find nothing to do).
	steps, afterLasers []namedStep
	slow               bool         // steps go through stepFloor: tiles, or Rules.PassTouches
	portals            [10][2]Pos   // the squares of each portal colour (portals.go)
	fxTable            *effectTable // what Effects hold, worked out once (effects.go)
	// walls is each square's Walls with its neighbours' walls on the shared edges added,
	// so that a wall test reads one byte (turn.blocked), and two marks the turn asks
	// robot by robot: wallsPit (turn.deadly) and wallsBare (turn.bare).
	walls  []Edges
	wallsW int // the floor's width, for walls
	// reach[4*sq+d] is how many squares a beam leaving square sq in direction d crosses
	// before a wall or the edge of the board stops it (turn.shoot).
	reach []uint16
	// reboots is the squares holding a reboot token, in board order, when rebootsOK
	// (turn.rebootSquare: a rebooting robot's every forecast looked for them square by
	// square).
	reboots   []int32
	rebootsOK bool

	// Rules come last: a turn reads the fields above far more often, and Rules (352
	// 300 bytes) between them spread them over more cache lines; a field added to
	// Rules then moved them all (BenchmarkTurn8Robots).
	Rules Rules
}

// The marks of Setup.walls beside the four edges.
const (
	wallsPit  Edges = 1 << 4 // a pit
	wallsBare Edges = 1 << 5 // no belt, pusher, gear, crusher, flag or repair site
)

type emitter struct {
	at    Pos
	dir   Dir
	beams int
	path  []Pos // squares the beam can reach on an empty board, emitter square first
	// cut[r] is how much of path the beam covers in register r (0: outside the
	// registers) with the swing doors closed then (doors.go); only read when the floor
	// has doors.
	cut [Registers + 1]int
}

// NewSetup checks the course and rules and prepares the static parts of the floor.
func NewSetup(c *Course, rules Rules, seed uint64, options []string) (*Setup, error) {
	if c == nil {
		return nil, fmt.Errorf("setup: no course")
	}
	if err := c.Check(); err != nil {
		return nil, err
	}
	if err := rules.Check(); err != nil {
		return nil, fmt.Errorf("setup: %v", err)
	}
	for _, e := range rules.Elements {
		if elementStep(e) == nil {
			return nil, fmt.Errorf("setup: unknown board element step %q", e)
		}
	}
	for _, e := range rules.AfterLasers {
		if elementStep(e) == nil {
			return nil, fmt.Errorf("setup: unknown step %q after the lasers", e)
		}
	}
	if rules.Tiles != "" {
		var err error
		if c, err = c.WithTiles(rules.Tiles); err != nil {
			return nil, fmt.Errorf("setup: rules tiles: %v", err)
		}
	}
	if c.Rules != "" && c.Rules != rules.Name {
		return nil, fmt.Errorf("setup: course %q is made for the %s rules, not the %s rules", c.Name, c.Rules, rules.Name)
	}
	if err := rules.checkElements(c); err != nil {
		return nil, fmt.Errorf("setup: %w", err)
	}
	if rules.Own() {
		if options == nil && !rules.Lighter {
			options = upgradeDeck()
		}
		if rules.Lighter && len(options) > 0 {
			return nil, fmt.Errorf("setup: the lighter game has no upgrades (seed 004, A Lighter Game)")
		}
		if err := checkUpgradeDeck(options); err != nil {
			return nil, fmt.Errorf("setup: %w", err)
		}
	} else if err := checkDeck(options); err != nil {
		return nil, fmt.Errorf("setup: %w", err)
	} else if rules.BioBots && slices.Contains(options, BioOption) {
		return nil, fmt.Errorf("setup: with Bio-Bots every robot has a Bio Option, so the card is not in the option deck (seed 001, Bio-Bots)")
	}
	// A floor element the rules' steps never run would be a tile that does nothing.
	if fx := scanFloor(c.Board); fx&fxStomper != 0 && !slices.Contains(rules.Elements, "stompers") {
		return nil, fmt.Errorf("setup: course %q has stompers but the rules' element steps have no \"stompers\"", c.Name)
	} else if fx&fxFlamer != 0 && !slices.Contains(rules.AfterLasers, "flamers") {
		return nil, fmt.Errorf("setup: course %q has flamers but the rules have no \"flamers\" step after the lasers", c.Name)
	}
	s := &Setup{Course: c, Deck: StandardDeck(), Rules: rules, Seed: seed, Options: options, Effects: effectList()}
	if rules.Own() {
		if err := s.prepare2023(); err != nil {
			return nil, err
		}
	}
	if err := s.prepare(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Setup) prepare() error {
	b := s.Course.Board
	if len(s.Effects) > 0 {
		s.fxTable = newEffectTable(s.Effects)
	}
	s.walls, s.wallsW = make([]Edges, len(b.Squares)), b.W
	s.reboots, s.rebootsOK = nil, true
	for k := range b.Squares {
		if b.Squares[k].Reboot.On {
			s.reboots = append(s.reboots, int32(k))
		}
	}
	s.reach = make([]uint16, 4*len(b.Squares))
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			sq := y*b.W + x
			for d := North; d <= West; d++ {
				if b.Blocked(Pos{x, y}, d) {
					s.walls[sq] = s.walls[sq].With(d)
				}
				n := 0
				for q := (Pos{x, y}); !b.Blocked(q, d) && b.In(q.Step(d)) && n < math.MaxUint16; q = q.Step(d) {
					n++
				}
				s.reach[4*sq+int(d)] = uint16(n)
			}
			if b.Squares[sq].Floor == FloorPit {
				s.walls[sq] |= wallsPit
			}
			if q := &b.Squares[sq]; q.Belt.Kind == NoBelt && q.Pusher.Registers == 0 && q.Gear == NoRotation && q.Crusher == 0 &&
				q.Flag == 0 && q.Repair == 0 && s.Course.FlagAt(Pos{x, y}) == 0 {
				s.walls[sq] |= wallsBare
			}
		}
	}
	s.fx = scanFloor(b)
	s.slow = s.fx != 0 || s.Rules.PassTouches
	if s.fx&fxCurrent != 0 && !slices.Contains(s.Rules.Elements, "currents") {
		return fmt.Errorf("course %q has currents, but the rules' board element steps (%s) have no currents step (seed 001, Currents)", s.Course.Name, strings.Join(s.Rules.Elements, ","))
	}
	if s.fx&fxPortal != 0 {
		pairs, err := checkPortals(b)
		if err != nil {
			return fmt.Errorf("course %q: %v", s.Course.Name, err)
		}
		s.portals = pairs
	}
	s.steps, s.afterLasers = s.resolveSteps(s.Rules.Elements), s.resolveSteps(s.Rules.AfterLasers)
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
				// Swing doors are looked at when the laser fires (they open and
				// close); a level's edge stops the beam for good (levels.go).
				if b.Blocked(q, l.Dir) || (s.fx&fxLevels != 0 && b.levelEdge(q, l.Dir)) {
					break
				}
			}
			for reg := 0; reg <= Registers; reg++ {
				e.cut[reg] = len(e.path)
				if s.fx&fxDoor == 0 {
					continue
				}
				for k, q := range e.path {
					if b.doorClosed(q, e.dir, reg) {
						e.cut[reg] = k + 1
						break
					}
				}
			}
			s.emitters = append(s.emitters, e)
		}
	}
	s.beamFrom = make([]int32, len(b.Squares)+1)
	for _, e := range s.emitters {
		for _, q := range e.path {
			s.beamFrom[q.Y*b.W+q.X+1]++
		}
	}
	for k := 1; k < len(s.beamFrom); k++ {
		s.beamFrom[k] += s.beamFrom[k-1]
	}
	s.beamRefs = make([]beamRef, s.beamFrom[len(b.Squares)])
	next := slices.Clone(s.beamFrom[:len(b.Squares)])
	for k, e := range s.emitters {
		for at, q := range e.path {
			sq := q.Y*b.W + q.X
			s.beamRefs[next[sq]] = beamRef{emitter: int32(k), at: int32(at)}
			next[sq]++
		}
	}
	return nil
}

// beamRef is a board laser (its place in Setup.emitters) and a square's place in its path.
type beamRef struct{ emitter, at int32 }

// Orders are one robot's orders for a turn: the program and the decider that answers
// its run-time decisions.
type Orders struct {
	// Program is the card in each register. A locked register may hold 0 (it runs the
	// locked card) or the locked card itself.
	Program [Registers]int
	// Decider answers decisions; nil means Defaults.
	Decider Decider
	// Shutdown: shut the robot down for this round (2023 rules, shutdown.go); the
	// program is then not needed and not played.
	Shutdown bool
	// Upgrade is the robot's upgrade phase for this round (2023 rules, upgrades.go).
	Upgrade UpgradeOrders
}

// CheckOrders lists everything wrong with a robot's orders: its program (CheckProgram)
// and a shutdown, which only the 2023 rules know.
func (s *Setup) CheckOrders(st *State, robot int, o Orders) []ProgramError {
	return s.checkOrders(st, robot, &o)
}

// checkOrders is CheckOrders reading the orders where they are: a turn checks every
// robot's orders, and Orders is too big to copy for each (BenchmarkTurn8Robots).
func (s *Setup) checkOrders(st *State, robot int, o *Orders) []ProgramError {
	if !o.Upgrade.Empty() {
		if !s.Rules.Own() {
			return []ProgramError{{Msg: "the upgrade phase belongs to the 2023 rules; this game plays the " + s.Rules.Name + " rules"}}
		}
		if s.Rules.Lighter {
			return []ProgramError{{Msg: "upgrade phase: the lighter game has no upgrades (seed 004, A Lighter Game)"}}
		}
		if r := &st.Robots[robot]; r.Mat != nil {
			if errs := checkUpgradeOrders(r, o.Upgrade); len(errs) > 0 {
				return errs
			}
		}
	}
	if o.Shutdown {
		if !s.Rules.Own() {
			return []ProgramError{{Msg: "shutdown belongs to the 2023 rules; this game plays the " + s.Rules.Name + " rules (power down instead)"}}
		}
		if st.Robots[robot].Out {
			return []ProgramError{{Msg: "the robot is out of the race"}}
		}
		return nil
	}
	return s.CheckProgram(st, robot, o.Program)
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
	if s.Rules.Own() {
		return s.checkOwnProgram(r, prog) // owndeck.go
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
	// The hand and the cards placed so far as bit sets (a card is a number below
	// MaxPriority): one test a card instead of a search.
	var hand, placed [(MaxPriority + 63) / 64]uint64
	for _, c := range r.Hand {
		if uint(c) < MaxPriority {
			hand[c/64] |= 1 << (c % 64)
		}
	}
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
		if hand[c/64]&(1<<(c%64)) == 0 { // Kind has refused numbers out of range
			errs = append(errs, ProgramError{Register: reg, Card: c, Msg: fmt.Sprintf("P%d is not in your hand", c)})
			continue
		}
		if placed[c/64]&(1<<(c%64)) != 0 {
			errs = append(errs, ProgramError{Register: reg, Card: c, Msg: fmt.Sprintf("P%d is already in register %d", c, slices.Index(used[:], c)+1)})
			continue
		}
		placed[c/64] |= 1 << (c % 64)
		used[i] = c
	}
	return errs
}

// namedStep is a register step and its name (the events' phase).
type namedStep struct {
	name string
	run  func(*turn)
}

// resolveSteps looks the step names up once (NewSetup has checked them), leaving out
// the steps of tiles the floor does not have.
func (s *Setup) resolveSteps(names []string) []namedStep {
	var out []namedStep
	for _, n := range names {
		switch {
		case n == "stompers" && s.fx&fxStomper == 0, n == "flamers" && s.fx&fxFlamer == 0:
			continue
		}
		if run := elementStep(n); run != nil {
			out = append(out, namedStep{n, run})
		}
	}
	return out
}

// settingKeys is the JSON name of every Rules field, in field order.
func settingKeys() []string {
	rt := reflect.TypeOf(Rules{})
	out := make([]string, 0, rt.NumField())
	for i := range rt.NumField() {
		if name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// zeroSetting is the JSON of the zero value of the setting with that name, for Set.
func zeroSetting(key string) (json.RawMessage, bool) {
	rt := reflect.TypeOf(Rules{})
	for i := range rt.NumField() {
		f := rt.Field(i)
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name == key {
			b, err := json.Marshal(reflect.Zero(f.Type).Interface())
			return b, err == nil
		}
	}
	return nil, false
}
