package orders

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/internal/near"
)

// vocab is the fixed vocabulary of the order language: option card names
// (adjudicator.OptionNames, data/options.txt) and their common aliases. It is computed
// once and never changed.
type vocab struct {
	options  map[string]string // squashed name → card name
	names    []string          // card names, for "did you mean"
	maxWords int
	// short are the squashed short names players write for a card ("tractor", "gyro"),
	// whose misspelt whole names ("tractor bean") must not read as the short name.
	short map[string]bool
	// prefixes are the beginnings of the keys of options, the keys too: a run of words
	// whose squash is none names no card, and neither does any longer run
	// (langParser.matchOption, asked at every order).
	prefixes map[string]bool
}

// nearestName is the card whose whole name is nearest to w, and how near (squashed).
func (v *vocab) nearestName(w string) (string, int) {
	sw := squash(w)
	best, bd := "", 1<<30
	for _, n := range v.names {
		if d := editDistance(sw, squash(n)); d < bd || (d == bd && n < best) {
			best, bd = n, d
		}
	}
	return best, bd
}

var theVocab = sync.OnceValue(func() *vocab {
	v := &vocab{options: map[string]string{}, short: map[string]bool{}}
	for _, n := range adjudicator.OptionNames() {
		v.options[squash(n)] = n
		v.names = append(v.names, n)
		if w := len(strings.Fields(n)); w > v.maxWords {
			v.maxWords = w
		}
	}
	// Other printings' names for the same cards (rules README, "Decisions": US names).
	for alias, name := range map[string]string{
		"gyroscopic stabilizer": "Gyroscopic Stabilisator",
		"gyroscope":             "Gyroscopic Stabilisator",
		"stabilizer":            "Gyroscopic Stabilisator",
		"fire control":          "Target Control",
		"high power laser":      "Power Laser",
		"pressor beam":          "High Pressor Beam",
		"high pressure beam":    "High Pressor Beam",
		"abort switch":          "Emergency Switch",
		"radio control":         "Remote Control",
		"deluxe safety copy":    "De Luxe Safety Copy",
		"big one":               "The Big One",
		"shield":                "Protection Shield",
		"shields":               "Protection Shields",
		"ablative coat":         "Protective Coating",
		"mini howitzer":         "Turbo Blaster",
		"scrambler":             "Randomizer",
		// The US printings of the Crash & Burn cards (issue 9; seed 000, translator's notes).
		"conditional program":    "Conditional Command",
		"double barreled laser":  "Double Laser",
		"double barrelled laser": "Double Laser",
		"power-down shield":      "Protection Shields",
		"power down shield":      "Protection Shields",
		"ramming gear":           "Ramming Device",
		"rear-firing laser":      "Rear Laser",
		"rear firing laser":      "Rear Laser",
		"superior archive":       "De Luxe Safety Copy",
		// Short names players write for a card (orders/decisions_test.go).
		"brake":        "Brakes",
		"4th gear":     "Fourth Gear",
		"gyro":         "Gyroscopic Stabilisator",
		"drone":        "Drone Launcher",
		"missile":      "Missile Launcher",
		"goo":          "Goo Dropper",
		"mine":         "Mine Layer",
		"jet":          "Big Jet",
		"copter":       "Robo-Copter",
		"turbo":        "Turbo Blaster",
		"tractor":      "Tractor Beam",
		"pressor":      "High Pressor Beam",
		"emergency":    "Emergency Switch",
		"homing":       "Homing Device",
		"bridge":       "Bridge Layer",
		"teleporter":   "Portable Teleporter",
		"retro rocket": "Retro-Rockets",
	} {
		if _, ok := v.options[squash(name)]; ok {
			v.options[squash(alias)] = name
			if len(strings.Fields(alias)) < len(strings.Fields(name)) {
				v.short[squash(alias)] = true
			}
		}
	}
	// The 2023 upgrades (adjudicator.UpgradeNames, seed 004). A name that is already an
	// option's or an alias's keeps that meaning (Mini Howitzer reads as Turbo Blaster,
	// Abort Switch as Emergency Switch); the decider compares names through the same
	// table (canonicalOption), so "use Mini Howitzer" answers the 2023 card too.
	for _, n := range adjudicator.UpgradeNames() {
		if _, ok := v.options[squash(n)]; !ok {
			v.options[squash(n)] = n
			v.names = append(v.names, n)
			if w := len(strings.Fields(n)); w > v.maxWords {
				v.maxWords = w
			}
		}
	}
	v.prefixes = map[string]bool{}
	for k := range v.options {
		for i := 1; i <= len(k); i++ {
			v.prefixes[k[:i]] = true
		}
	}
	return v
})

// canonicalOption is the card an option name stands for in the order language: its
// own name, or the card an alias names.
func canonicalOption(name string) string {
	if n, ok := theVocab().options[squash(name)]; ok {
		return n
	}
	return name
}

// squash lower-cases s and drops everything but letters and digits: "Retro-Rockets" and
// "retro rockets" are the same name.
// A string already squashed (the lower-cased words of an order mostly are) is its own
// squash, with no copy.
func squash(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return string(appendSquashed(make([]byte, 0, len(s)), s))
		}
	}
	return s
}

// appendSquashed appends the squash of the words joined to dst: squash(strings.Join(words,
// "")) without the join, into a buffer the caller may keep on the stack.
func appendSquashed(dst []byte, words ...string) []byte {
	for _, w := range words {
		for _, r := range w {
			switch {
			case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
				dst = append(dst, byte(r))
			case r >= 'A' && r <= 'Z':
				dst = append(dst, byte(r)+'a'-'A')
			case r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
				// Accents off, as people write names (issue 22: "Brakés" is Brakes);
				// only words with letters outside ASCII come here.
				dst = append(dst, near.Fold(string(r))...)
			}
		}
	}
	return dst
}

// nearestWord is the candidate closest to w by edit distance, if close enough to be a
// likely typo.
func nearestWord(w string, candidates []string) (string, bool) {
	best, bd := "", 1<<30
	lw := strings.ToLower(w)
	for _, c := range candidates {
		d := editDistance(lw, strings.ToLower(c))
		if d < bd {
			best, bd = c, d
		}
	}
	limit := 1 + len([]rune(w))/4
	if limit > 3 {
		limit = 3
	}
	return best, best != "" && bd <= limit
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		return 1 << 20
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := prev[j-1]
			if ra[i-1] != rb[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1)
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
