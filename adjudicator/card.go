package adjudicator

import (
	_ "embed"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// CardKind is what a program card does.
type CardKind uint8

const (
	NoCard CardKind = iota
	CardUTurn
	CardLeft
	CardRight
	CardBackUp
	CardMove1
	CardMove2
	CardMove3
	// The kinds below belong to the 2023 rules (seed 004, Programming Cards, Damage
	// System); a 2023 card is named by its kind, and its number is the kind's value, so
	// these values are stored in saved games and must never be renumbered.
	CardPowerUp  // seed 004: gain 1 energy
	CardAgain    // seed 004: repeat the previous register's programming
	CardSpam     // seed 004, SPAM: replaced by the top card of the deck when revealed
	CardHaywire1 // this project's Haywire "Lurch" (adjudicator/haywire.go)
	CardHaywire2 // this project's Haywire "Spin-out"
	CardHaywire3 // this project's Haywire "Stall"
	CardHaywire4 // this project's Haywire "Surge"
)

var cardKindNames = [...]string{"none", "uturn", "left", "right", "backup", "move1", "move2", "move3",
	"powerup", "again", "spam", "lurch", "spinout", "stall", "surge"}

// Titles as players know them, for reports and order sheets. Back Up is "Move Back" in
// the 2023 deck (seed 004); it does the same.
var cardKindTitles = [...]string{"(none)", "U-Turn", "Rotate Left", "Rotate Right", "Back Up", "Move 1", "Move 2", "Move 3",
	"Power Up", "Again", "SPAM", "Haywire Lurch", "Haywire Spin-out", "Haywire Stall", "Haywire Surge"}

func (k CardKind) String() string {
	if int(k) < len(cardKindNames) {
		return cardKindNames[k]
	}
	return "card?"
}

// Title is the card's printed name ("Move 2").
func (k CardKind) Title() string {
	if int(k) < len(cardKindTitles) {
		return cardKindTitles[k]
	}
	return "?"
}

// Steps is how far the card moves the robot: 1–3 forward, -1 for Back Up, 0 for turns.
func (k CardKind) Steps() int {
	switch k {
	case CardMove1:
		return 1
	case CardMove2:
		return 2
	case CardMove3:
		return 3
	case CardBackUp:
		return -1
	}
	return 0
}

// Rotation is how the card turns the robot in place.
func (k CardKind) Rotation() Rotation {
	switch k {
	case CardLeft:
		return TurnLeft
	case CardRight:
		return TurnRight
	case CardUTurn:
		return UTurn
	}
	return NoRotation
}

// Damage reports whether the card is a damage card (SPAM or a Haywire) of the 2023 rules.
func (k CardKind) Damage() bool { return k == CardSpam || k.Haywire() }

// Haywire reports whether the card is one of this project's Haywire cards.
func (k CardKind) Haywire() bool { return k >= CardHaywire1 && k <= CardHaywire4 }

// ParseCardKind reads a kind name as in data/deck.txt.
func ParseCardKind(s string) (CardKind, bool) {
	for i, n := range cardKindNames {
		if i > 0 && n == s {
			return CardKind(i), true
		}
	}
	return NoCard, false
}

// MaxPriority bounds card priorities; a priority is the card's identity ("P490").
const MaxPriority = 1000

// Deck is the set of program cards in play, each named by its unique priority.
type Deck struct {
	kinds [MaxPriority]CardKind
	cards []int // every priority, ascending
	// byKind: the cards have no priorities and are named by kind (the 2023 decks, seed
	// 004: a card's number is its CardKind).
	byKind bool
}

//go:embed data/deck.txt
var standardDeckText string

// StandardDeck is the 84-card classic deck of the rules README.
func StandardDeck() *Deck {
	d, err := ParseDeck(standardDeckText)
	if err != nil {
		panic("adjudicator: embedded deck: " + err.Error()) // the embedded data is tested
	}
	return d
}

// ParseDeck reads a deck table: lines "kind count first step"; # starts a comment.
func ParseDeck(text string) (*Deck, error) {
	d := &Deck{}
	for i, line := range strings.Split(text, "\n") {
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 4 {
			return nil, fmt.Errorf("deck: line %d: want \"kind count first step\", got %d fields", i+1, len(f))
		}
		k, ok := ParseCardKind(f[0])
		if !ok {
			return nil, fmt.Errorf("deck: line %d: unknown card kind %q", i+1, f[0])
		}
		var n [3]int
		for j := range n {
			v, err := strconv.Atoi(f[j+1])
			if err != nil || v < 0 {
				return nil, fmt.Errorf("deck: line %d: %q is not a number", i+1, f[j+1])
			}
			n[j] = v
		}
		for c := 0; c < n[0]; c++ {
			p := n[1] + c*n[2]
			if p <= 0 || p >= MaxPriority {
				return nil, fmt.Errorf("deck: line %d: priority %d out of range", i+1, p)
			}
			if d.kinds[p] != NoCard {
				return nil, fmt.Errorf("deck: line %d: priority %d used twice", i+1, p)
			}
			d.kinds[p] = k
			d.cards = append(d.cards, p)
		}
	}
	sort.Ints(d.cards)
	return d, nil
}

// Kind is what the card with priority p does; NoCard if there is no such card.
func (d *Deck) Kind(p int) CardKind {
	if p <= 0 || p >= MaxPriority {
		return NoCard
	}
	return d.kinds[p]
}

// Cards lists every priority in the deck, ascending. The slice is a copy.
func (d *Deck) Cards() []int { return append([]int(nil), d.cards...) }

// ByKind reports whether cards are named by kind rather than by priority (2023 rules).
func (d *Deck) ByKind() bool { return d.byKind }

// Len is the number of cards.
func (d *Deck) Len() int { return len(d.cards) }

// CardName is "Move 1 P490".
func (d *Deck) CardName(p int) string {
	if d.byKind {
		return d.Kind(p).Title()
	}
	return fmt.Sprintf("%s P%d", d.Kind(p).Title(), p)
}

// Nearest returns the card of the deck closest in priority to p among candidates, for
// "did you mean" hints; ok is false when candidates is empty.
func Nearest(p int, candidates []int) (best int, ok bool) {
	for _, c := range candidates {
		if !ok || abs(c-p) < abs(best-p) || (abs(c-p) == abs(best-p) && c < best) {
			best, ok = c, true
		}
	}
	return best, ok
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// shuffleInts shuffles xs for (seed, turn, stream) exactly as turnRNG(...).Shuffle does
// on a 64-bit machine (Fisher-Yates with Lemire's bounded draw, math/rand/v2), with the
// generator on the stack: the deal allocates nothing for it (BenchmarkTurn8Robots).
// TestShuffleIntsMatchesRand holds it to the library's order.
func shuffleInts(seed uint64, turn int, stream uint64, xs []int) {
	var pcg rand.PCG
	pcg.Seed(seed^0x9E3779B97F4A7C15*uint64(turn+1), stream)
	for i := len(xs) - 1; i > 0; i-- {
		j := int(boundedDraw(&pcg, uint64(i+1)))
		xs[i], xs[j] = xs[j], xs[i]
	}
}

// stackTop moves the cards of top found in deck to its front, in top's order, keeping
// the order of the rest (Setup.PileTop, Setup.DealTop).
func stackTop(deck, top []int) {
	k := 0
	for _, c := range top {
		j := slices.Index(deck[k:], c)
		if j < 0 {
			continue
		}
		j += k
		copy(deck[k+1:j+1], deck[k:j])
		deck[k] = c
		k++
	}
}

func boundedDraw(p *rand.PCG, n uint64) uint64 {
	if n&(n-1) == 0 {
		return p.Uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(p.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(p.Uint64(), n)
		}
	}
	return hi
}

// turnRNG is the generator for one turn: fixed by the game seed and the turn number, so
// a seed fixes every card dealt and every option drawn.
func turnRNG(seed uint64, turn int, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed^0x9E3779B97F4A7C15*uint64(turn+1), stream))
}
