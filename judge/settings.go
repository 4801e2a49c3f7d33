package judge

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/store"
)

// A game's settings as a game master writes them (key=value in CREATE and SET), and
// how they are shown back.

// closingQuotes are the quotes a value may be written in, by the one that opens it: the
// straight one, and the typographic ones word processors and phones put in its place
// (Outlook's editor and iOS turn "Autumn Cup" into “Autumn Cup”; German „…“, French «…»).
var closingQuotes = map[rune]string{'"': `"`, '“': "”", '”': "”", '„': "“”", '«': "»", '»': "«", '‘': "’", '‚': "‘’"}

// unquote is v without the quotes around it (closingQuotes), or v.
func unquote(v string) string {
	open, n := utf8.DecodeRuneInString(v)
	closers, ok := closingQuotes[open]
	if !ok || len(v) <= n {
		return v
	}
	last, m := utf8.DecodeLastRuneInString(v[n:])
	if !strings.ContainsRune(closers, last) {
		return v
	}
	return v[n : len(v)-m]
}

// settingValue is SET's value as written: without its quotes, typographic ones too.
func settingValue(v string) string {
	if u := unquote(v); u != v {
		return u
	}
	return strings.Trim(v, "\"")
}

// The longest times a game master may set. Past them a number is a typo or an attack:
// a deadline years away was stored, and one past the year 9999 (DEADLINE 9999-12-31
// then EXTEND 2562047h) could not be read back, so the game was lost.
const (
	MaxDeadlineHours = 60 * 24                  // deadline NNh: at most 60 days after each report
	MaxGrace         = 30 * 24 * time.Hour      // grace
	MaxDeadlineAhead = 5 * 365 * 24 * time.Hour // DEADLINE and EXTEND: at most five years from now
	MaxReminders     = 6                        // lead times in reminders
	MaxReminderLead  = 60 * 24 * time.Hour
)

// MaxMissedLimit is the most missed turns in a row a game may wait before its
// on-missed-limit: a larger limit is never reached in a game.
const MaxMissedLimit = 99

// KVMap is key=value pairs as a map, keys lower case; a key given twice is refused
// (CREATE by mail, parseKV, and the command line's pairs, Command.KV).
func KVMap(pairs [][2]string) (map[string]string, error) {
	kv := make(map[string]string, len(pairs))
	for _, p := range pairs {
		k := strings.ToLower(p[0])
		if gs := settingByKey(k); gs != nil {
			k = gs.key // an alias is its setting: max-players=3 players=5 is players twice
		}
		if _, dup := kv[k]; dup {
			return nil, refuse("%s is given twice: give each key once.", k)
		}
		kv[k] = p[1]
	}
	return kv, nil
}

// parseKV reads key=value words; a value may be quoted with "..." spanning words, or
// with typographic quotes (closingQuotes).
func parseKV(args []string) (map[string]string, error) {
	var pairs [][2]string
	s := strings.Join(args, " ")
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		i := strings.IndexByte(s, '=')
		if i <= 0 || strings.ContainsAny(s[:i], " \t") {
			return nil, refuse("%q: want key=value.", strings.Fields(s)[0])
		}
		key, rest := strings.ToLower(s[:i]), s[i+1:]
		var val string
		open, n := utf8.DecodeRuneInString(rest)
		if closers, quoted := closingQuotes[open]; quoted {
			k := strings.IndexAny(rest[n:], closers)
			if k < 0 {
				return nil, refuse("%s: the quote is not closed.", key)
			}
			_, m := utf8.DecodeRuneInString(rest[n+k:])
			val, s = rest[n:n+k], rest[n+k+m:]
		} else if k := strings.IndexAny(rest, " \t"); k >= 0 {
			val, s = rest[:k], rest[k:]
		} else {
			val, s = rest, ""
		}
		pairs = append(pairs, [2]string{key, val})
	}
	return KVMap(pairs)
}

// parseDeadlineRule reads "48h", "after 48h", "daily 18:00", "daily@18:00", "18:00".
func parseDeadlineRule(v string) (store.DeadlineRule, error) {
	v = strings.ToLower(strings.TrimSpace(strings.ReplaceAll(v, "@", " ")))
	v = strings.TrimSpace(strings.TrimPrefix(v, "after"))
	if strings.HasPrefix(v, "daily") || strings.Contains(v, ":") {
		clock := strings.TrimSpace(strings.TrimPrefix(v, "daily"))
		if _, err := time.Parse("15:04", clock); err != nil {
			return store.DeadlineRule{}, refuse("deadline %q: want daily HH:MM (UTC).", v)
		}
		return store.DeadlineRule{Kind: store.DeadlineFixed, Clock: clock}, nil
	}
	d, err := parseDuration(v)
	if err != nil || d < time.Hour || d%time.Hour != 0 {
		return store.DeadlineRule{}, refuse("deadline %q: want whole hours after each report (48h) or daily HH:MM.", v)
	}
	if d > MaxDeadlineHours*time.Hour {
		return store.DeadlineRule{}, refuse("deadline %q: at most %dh (%d days) after each report.", v, MaxDeadlineHours, MaxDeadlineHours/24)
	}
	return store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: int(d / time.Hour)}, nil
}

// shortDuration writes d as a game master types it: 2h, 90h, 1h30m, 45m (never Go's
// 2h0m0s, which mails and the settings showed before).
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// parseDuration reads Go durations, with d for days and a bare number as hours.
func parseDuration(v string) (time.Duration, error) {
	v = strings.ToLower(strings.TrimSpace(v))
	// A count of hours or days past about 290 years overflowed into a negative or
	// wrong duration (99999999999d): refused.
	inUnit := func(n int, unit time.Duration) (time.Duration, error) {
		if max := int64(math.MaxInt64 / unit); int64(n) > max || int64(n) < -max {
			return 0, refuse("%q is too long a duration.", v)
		}
		return time.Duration(n) * unit, nil
	}
	if n, err := strconv.Atoi(v); err == nil {
		return inUnit(n, time.Hour)
	}
	if strings.HasSuffix(v, "d") {
		n, err := strconv.Atoi(strings.TrimSuffix(v, "d"))
		if err != nil {
			return 0, refuse("%q is not a duration (24h, 2d, 90m).", v)
		}
		return inUnit(n, 24*time.Hour)
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, refuse("%q is not a duration (24h, 2d, 90m).", v)
	}
	return d, nil
}

// gameSetting is one key a game master may set: CREATE key=value, SET KEY VALUE,
// `rallyjudge game create --set key=value`. A new setting is one entry here (and the
// Options field it keeps its value in); HELP, the error for an unknown key and the
// settings a game master is shown all come from this table.
type gameSetting struct {
	key     string
	aliases []string
	values  string // what it takes, for HELP and errors
	label   string // in the settings shown back; "" to leave it out
	set     func(s *store.GameSettings, o *Options, val string) error
	show    func(s store.GameSettings, o Options, g store.Game) string
}

// gameSettings lists the settings in the order they are shown.
var gameSettings = []gameSetting{
	{key: "name", values: "TEXT", label: "name",
		set: func(s *store.GameSettings, _ *Options, v string) error {
			if err := checkName("name", v); err != nil {
				return err
			}
			s.Name = v
			return nil
		},
		show: func(s store.GameSettings, _ Options, _ store.Game) string {
			if s.Name == "" {
				return "none (SET name TEXT gives one)"
			}
			return s.Name
		}},
	{key: "deadline", values: "48h | daily 18:00", label: "deadline",
		set: func(s *store.GameSettings, _ *Options, v string) error {
			r, err := parseDeadlineRule(v)
			s.Deadline = r
			return err
		},
		show: func(s store.GameSettings, _ Options, _ store.Game) string { return deadlineRuleText(s.Deadline) }},
	{key: "grace", values: "2h", label: "grace",
		set: func(s *store.GameSettings, _ *Options, v string) error {
			d, err := parseDuration(v)
			if err != nil || d < 0 || d > MaxGrace {
				return refuse("grace %q: want a duration from 0 to %s, like 2h.", v, shortDuration(MaxGrace))
			}
			s.Grace = d
			return nil
		},
		show: func(s store.GameSettings, _ Options, _ store.Game) string {
			if s.Grace == 0 {
				return "none"
			}
			return shortDuration(s.Grace)
		}},
	{key: "missed", values: "powerdown | random | autopilot", label: "missed orders",
		set: func(s *store.GameSettings, o *Options, v string) error {
			switch strings.ToLower(v) {
			case "powerdown", "random":
				s.Missed, o.Missed = store.MissedPolicy(strings.ToLower(v)), ""
			case MissedAutopilot:
				o.Missed = MissedAutopilot
			default:
				return refuse("missed %q: want powerdown, random or autopilot.", v)
			}
			return nil
		},
		show: func(store.GameSettings, Options, store.Game) string { return "the game's autopilot plays the move" }},
	{key: "rules", values: "postal | 2023, and the 2023 variants lighter, less-deadly, less-spammy, dynamic-archive, act-fast =yes (at CREATE only)", label: "rules",
		set: func(*store.GameSettings, *Options, string) error {
			return refuse("the ruleset and its variants are chosen when the game is created (CREATE ... rules=2023 less-deadly=yes) and do not change.")
		},
		show: func(_ store.GameSettings, _ Options, g store.Game) string { return g.Kind + "'s own (set at CREATE)" }},
	{key: "players", aliases: []string{"max-players"}, values: "N (the most that may join)", label: "players",
		set: func(_ *store.GameSettings, o *Options, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > MaxSeats {
				return refuse("players %q: want 1 to %d.", v, MaxSeats)
			}
			o.MaxPlayers = n
			return nil
		},
		show: func(_ store.GameSettings, o Options, _ store.Game) string {
			return fmt.Sprintf("at most %d", o.maxPlayers())
		}},
	{key: "missed-limit", values: "N turns in a row, 0 (never) to 99", label: "missed limit",
		set: func(_ *store.GameSettings, o *Options, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > MaxMissedLimit {
				return refuse("missed-limit %q: want 0 (never) to %d turns.", v, MaxMissedLimit)
			}
			o.MissedLimit = n
			return nil
		},
		show: func(_ store.GameSettings, o Options, _ store.Game) string {
			if o.MissedLimit <= 0 {
				return "never"
			}
			act := "the game master is asked to replace the player"
			if o.OnMissedLimit == "remove" {
				act = "the player is withdrawn"
			}
			return fmt.Sprintf("after %d missed turns in a row %s", o.MissedLimit, act)
		}},
	{key: "on-missed-limit", values: "ask | remove",
		set: func(_ *store.GameSettings, o *Options, v string) error {
			v = strings.ToLower(v)
			if v != "ask" && v != "remove" {
				return refuse("on-missed-limit %q: want ask or remove.", v)
			}
			o.OnMissedLimit = v
			return nil
		}},
	{key: "reminders", values: "24h,2h | none", label: "reminders",
		set: func(_ *store.GameSettings, o *Options, v string) error {
			if strings.EqualFold(v, "none") {
				o.Reminders = []int64{}
				return nil
			}
			var rs []int64
			fs := strings.Split(v, ",")
			if len(fs) > MaxReminders {
				return refuse("reminders: %d lead times; at most %d, like 24h,2h.", len(fs), MaxReminders)
			}
			for i, f := range fs {
				// under a minute (1ns was stored as 0s) or past 60 days is no lead time
				d, err := parseDuration(f)
				if err != nil || d < time.Minute || d > MaxReminderLead {
					return refuse("reminders: lead time %d %q: want 1m to %s, like 24h,2h, or none.", i+1, strings.TrimSpace(f), shortDuration(MaxReminderLead))
				}
				for _, r := range rs {
					if r == int64(d/time.Second) {
						return refuse("reminders: lead time %d %q is given twice.", i+1, strings.TrimSpace(f))
					}
				}
				rs = append(rs, int64(d/time.Second))
			}
			o.Reminders = rs
			return nil
		},
		show: func(_ store.GameSettings, o Options, _ store.Game) string {
			var rem []string
			for _, l := range o.leads() {
				rem = append(rem, shortDuration(l))
			}
			if len(rem) == 0 {
				return "none"
			}
			return strings.Join(rem, ", ") + " before the deadline"
		}},
	{key: "list", values: "ADDRESS | none (a mailing list for the public report)", label: "list",
		set: func(s *store.GameSettings, _ *Options, v string) error {
			if v == "none" {
				v = ""
			} else if err := CheckAddress("list", v); err != nil {
				return err
			}
			s.ListAddress = v
			return nil
		},
		show: func(s store.GameSettings, _ Options, _ store.Game) string {
			if s.ListAddress == "" {
				return "none"
			}
			return s.ListAddress
		}},
	{key: "observers", values: "yes | no (no: nobody observes the game)", label: "observers",
		set:  choice(func(o *Options) *string { return &o.Observers }, "observers", "yes", "no"),
		show: func(_ store.GameSettings, o Options, _ store.Game) string { return o.observers() }},
	{key: "press", values: "any | signed | anonymous | none", label: "press",
		set:  choice(func(o *Options) *string { return &o.Press }, "press", "any", "signed", "anonymous", "none"),
		show: func(_ store.GameSettings, o Options, _ store.Game) string { return pressText(o.press()) }},
	{key: "whogame", values: "players | public | gm (who sees who plays which robot)", label: "whogame",
		set:  choice(func(o *Options) *string { return &o.WhoGame }, "whogame", "players", "public", "gm"),
		show: func(_ store.GameSettings, o Options, _ store.Game) string { return whoGameText(o.whoGame()) }},
	{key: "absence", values: "extend | autopilot | powerdown (for a player away)", label: "absence",
		set:  choice(func(o *Options) *string { return &o.Absence }, "absence", "extend", "autopilot", "powerdown"),
		show: func(_ store.GameSettings, o Options, _ store.Game) string { return absenceText(o) }},
	{key: "absence-cap", values: "72h (the most one turn is extended for absences)",
		set: func(_ *store.GameSettings, o *Options, v string) error {
			d, err := parseDuration(v)
			if err != nil || d < time.Hour || d > 30*24*time.Hour {
				return refuse("absence-cap %q: want a duration from 1h to 30d, like 72h.", v)
			}
			o.AbsenceCap = int64(d / time.Second)
			return nil
		}},
	{key: "press-limit", values: fmt.Sprintf("N press messages a player may send a turn, 1 to %d (default %d)", MaxPressLimit, DefaultPressLimit), label: "press limit",
		set: func(_ *store.GameSettings, o *Options, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > MaxPressLimit {
				return refuse("press-limit %q: want 1 to %d messages a player a turn.", v, MaxPressLimit)
			}
			o.PressLimit = n
			return nil
		},
		show: func(_ store.GameSettings, o Options, _ store.Game) string {
			return fmt.Sprintf("at most %d press messages a player a turn, each to the game's players and observers only", o.pressLimit())
		}},
	{key: "gm-copies", values: "on | off (copies of reports, notices and press to the game masters)", label: "gm copies",
		set:  choice(func(o *Options) *string { return &o.GMCopies }, "gm-copies", "off", "on"),
		show: func(_ store.GameSettings, o Options, _ store.Game) string { return o.gmCopies() }},
}

// choice is the setter of a setting that takes one of a few words (the first is the
// default).
func choice(field func(*Options) *string, key string, words ...string) func(*store.GameSettings, *Options, string) error {
	return func(_ *store.GameSettings, o *Options, v string) error {
		v = strings.ToLower(strings.TrimSpace(v))
		for _, w := range words {
			if v == w {
				*field(o) = v
				return nil
			}
		}
		return refuse("%s %q: want %s.", key, v, strings.Join(words, ", "))
	}
}

func settingByKey(key string) *gameSetting {
	for i := range gameSettings {
		gs := &gameSettings[i]
		if gs.key == key {
			return gs
		}
		for _, a := range gs.aliases {
			if a == key {
				return gs
			}
		}
	}
	return nil
}

func settingKeys() string {
	var ks []string
	for _, gs := range gameSettings {
		ks = append(ks, gs.key)
	}
	return strings.Join(ks, ", ")
}

// settingsHelp is the settings part of HELP.
func settingsHelp() string {
	var b strings.Builder
	for _, gs := range gameSettings {
		fmt.Fprintf(&b, "  %-16s %s\n", gs.key, gs.values)
	}
	return b.String()
}

// applySetting changes one game option in settings s and options o.
func applySetting(s *store.GameSettings, o *Options, key, val string) error {
	gs := settingByKey(key)
	if gs == nil {
		return refuse("unknown option %q (options: %s).", key, settingKeys())
	}
	return gs.set(s, o, val)
}

// settingsText shows a game's settings, one a line; d, when not nil, says the game's
// missed-move policy and rules in its own words (game.Describer).
func settingsText(s store.GameSettings, o Options, g store.Game, d game.Describer) string {
	var b strings.Builder
	for _, gs := range gameSettings {
		if gs.label == "" || gs.show == nil {
			continue
		}
		v := gs.show(s, o, g)
		switch {
		case d != nil && gs.key == "missed":
			v = d.MissedLine()
		case d != nil && gs.key == "rules":
			v = d.RulesLine()
		}
		fmt.Fprintf(&b, "  %-17s%s\n", gs.label+":", v)
	}
	return b.String()
}

// deadlineRuleText says a deadline rule in words.
func deadlineRuleText(r store.DeadlineRule) string {
	if r.Kind == store.DeadlineFixed {
		return "daily at " + r.Clock + " UTC"
	}
	return fmt.Sprintf("%d hours after each report", r.Hours)
}

func pressText(p string) string {
	switch p {
	case "signed":
		return "signed only (PRESS TO ROBOT ...)"
	case "anonymous":
		return "anonymous only (PRESS TO ROBOT ...)"
	case "none":
		return "none"
	}
	return "signed or anonymous, as the sender chooses (PRESS TO ROBOT ...)"
}

func whoGameText(w string) string {
	switch w {
	case "public":
		return "anyone may ask who plays which robot"
	case "gm":
		return "only the game masters see who plays which robot"
	}
	return "the players may ask who plays which robot"
}

func absenceText(o Options) string {
	switch o.absence() {
	case "autopilot":
		return "an absent player's robot is played by the autopilot"
	case "powerdown":
		return "an absent player's robot powers down"
	}
	return fmt.Sprintf("the deadline waits for an absent player, by at most %s a turn", shortDuration(o.absenceCap()))
}
