package crashbycrash

// seed 002, Game Contents ("39 cards – 13 different cards, 3 of each") and Cards
// overview, which names 12 kinds. Ruling "The deck": 12 kinds × 3 = 36 cards; the make-up
// is data (data/cards.yaml), the behaviour is code (cards.go).

import (
	_ "embed"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

//go:embed data/cards.yaml
var cardsYAML []byte

// Card is a card kind; 0 is no card. The values are stored in saved games: never renumber.
type Card uint8

// The twelve kinds, in the order of the seed's Cards overview.
const (
	NoCard Card = iota
	BellCharms
	Lambada
	FreeRide
	Saboteur
	FlyingDutchman
	DeadAccumulator
	PowerlessBell
	ShadyException
	DoubleHit
	CarRacket
	Tandem
	ExpansionUnlimited
	numCards
)

// Colour is a card's colour: how it binds to the turn's other action.
type Colour uint8

// Colours (seed 002, Action "Playing a card").
const (
	Grey   Colour = iota // an action of its own
	Yellow               // first action; the second must ring a bell
	Blue                 // first action; the second places a standard car, no accumulators
)

var cardNames = [numCards]string{"", "Bell Charms", "Lambada", "Free Ride", "Saboteur", "Flying Dutchman",
	"Dead Accumulator", "Powerless Bell", "Shady Exception", "Double Hit", "Car-Racket", "Tandem", "Expansion Unlimited"}

// String is the card's name as printed.
func (c Card) String() string {
	if c >= numCards {
		return fmt.Sprintf("card%d", int(c))
	}
	if c == NoCard {
		return "none"
	}
	return cardNames[c]
}

// CardInfo is a kind's line of data/cards.yaml.
type CardInfo struct {
	Card   Card
	Name   string
	Colour Colour
	Count  int
	Args   string // what follows "play NAME" in an order
	Effect string // one line for reports and HELP
}

// Cards lists the deck's kinds with their counts and effects.
func Cards() []CardInfo { return cardInfos }

var cardInfos = mustLoadCards(cardsYAML)

func mustLoadCards(b []byte) []CardInfo {
	c, err := loadCards("data/cards.yaml", b)
	if err != nil {
		panic(err) // the embedded file is ours; TestCardsData keeps it valid
	}
	return c
}

// loadCards reads the deck's make-up and checks it names each of the 12 kinds once.
func loadCards(file string, b []byte) ([]CardInfo, error) {
	var doc struct {
		Cards []yaml.Node `yaml:"cards"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	out := make([]CardInfo, numCards)
	seen := 0
	for i := range doc.Cards {
		n := &doc.Cards[i]
		var c struct {
			Name, Colour, Args, Effect string
			Count                      int
		}
		if err := n.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", file, n.Line, err)
		}
		k := CardNamed(c.Name)
		if k == NoCard {
			return nil, fmt.Errorf("%s:%d: %q is not one of the twelve cards of seed 002", file, n.Line, c.Name)
		}
		if out[k].Card != NoCard {
			return nil, fmt.Errorf("%s:%d: %s is listed twice", file, n.Line, c.Name)
		}
		col := map[string]Colour{"grey": Grey, "yellow": Yellow, "blue": Blue}
		cl, ok := col[c.Colour]
		if !ok {
			return nil, fmt.Errorf("%s:%d: %s has colour %q, want grey, yellow or blue", file, n.Line, c.Name, c.Colour)
		}
		if cl != cardColour(k) {
			return nil, fmt.Errorf("%s:%d: %s is %s in seed 002, not %s", file, n.Line, c.Name, []string{"grey", "yellow", "blue"}[cardColour(k)], c.Colour)
		}
		if c.Count < 0 || c.Count > 6 {
			return nil, fmt.Errorf("%s:%d: %s count %d, want 0-6", file, n.Line, c.Name, c.Count)
		}
		out[k] = CardInfo{Card: k, Name: cardNames[k], Colour: cl, Count: c.Count, Args: c.Args, Effect: c.Effect}
		seen++
	}
	if seen != int(numCards)-1 {
		return nil, fmt.Errorf("%s: %d kinds listed, want all 12", file, seen)
	}
	total := 0
	for _, c := range out[1:] {
		total += c.Count
	}
	if total > maxDeck {
		return nil, fmt.Errorf("%s: %d cards, at most %d", file, total, maxDeck)
	}
	return out[1:], nil
}

// maxDeck bounds the deck for the fixed arrays of State.
const maxDeck = 48

// cardColour is a kind's colour, from seed 002's Cards overview.
func cardColour(c Card) Colour {
	switch {
	case c == PowerlessBell || c == ShadyException:
		return Yellow
	case c >= DoubleHit && c <= ExpansionUnlimited:
		return Blue
	}
	return Grey
}

// CardNamed finds a kind by its name, ignoring case, spaces and hyphens ("car racket",
// "CarRacket", "Car-Racket"); NoCard when none matches.
func CardNamed(s string) Card {
	k := cardKey(s)
	for c := Card(1); c < numCards; c++ {
		if cardKey(cardNames[c]) == k {
			return c
		}
	}
	return NoCard
}

func cardKey(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '_' {
			return -1
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// deckMakeUp is the full deck, kinds in order, before shuffling.
func deckMakeUp() []Card {
	var d []Card
	for _, ci := range cardInfos {
		for i := 0; i < ci.Count; i++ {
			d = append(d, ci.Card)
		}
	}
	return d
}
