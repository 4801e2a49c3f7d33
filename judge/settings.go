package judge

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/store"
)

// A game's settings as a game master writes them (key=value in CREATE and SET), and
// how they are shown back.

// parseKV reads key=value words; a value may be quoted with "..." spanning words.
func parseKV(args []string) (map[string]string, error) {
	kv := map[string]string{}
	s := strings.Join(args, " ")
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		i := strings.IndexByte(s, '=')
		if i <= 0 || strings.ContainsAny(s[:i], " \t") {
			return nil, refuse("%q: want key=value.", strings.Fields(s)[0])
		}
		key, rest := strings.ToLower(s[:i]), s[i+1:]
		var val string
		if strings.HasPrefix(rest, "\"") {
			k := strings.IndexByte(rest[1:], '"')
			if k < 0 {
				return nil, refuse("%s: the quote is not closed.", key)
			}
			val, s = rest[1:k+1], rest[k+2:]
		} else if k := strings.IndexAny(rest, " \t"); k >= 0 {
			val, s = rest[:k], rest[k:]
		} else {
			val, s = rest, ""
		}
		kv[key] = val
	}
	return kv, nil
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
	return store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: int(d / time.Hour)}, nil
}

// parseDuration reads Go durations, with d for days and a bare number as hours.
func parseDuration(v string) (time.Duration, error) {
	v = strings.ToLower(strings.TrimSpace(v))
	if n, err := strconv.Atoi(v); err == nil {
		return time.Duration(n) * time.Hour, nil
	}
	if strings.HasSuffix(v, "d") {
		n, err := strconv.Atoi(strings.TrimSuffix(v, "d"))
		if err != nil {
			return 0, refuse("%q is not a duration (24h, 2d, 90m).", v)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, refuse("%q is not a duration (24h, 2d, 90m).", v)
	}
	return d, nil
}

// applySetting changes one game option in settings s and options o.
func applySetting(s *store.GameSettings, o *Options, key, val string) error {
	switch key {
	case "name":
		s.Name = val
	case "deadline":
		r, err := parseDeadlineRule(val)
		if err != nil {
			return err
		}
		s.Deadline = r
	case "grace":
		d, err := parseDuration(val)
		if err != nil || d < 0 {
			return refuse("grace %q: want a duration like 2h.", val)
		}
		s.Grace = d
	case "missed":
		switch strings.ToLower(val) {
		case "powerdown", "random":
			s.Missed, o.Missed = store.MissedPolicy(strings.ToLower(val)), ""
		case MissedAutopilot:
			o.Missed = MissedAutopilot
		default:
			return refuse("missed %q: want powerdown, random or autopilot.", val)
		}
	case "players", "max-players":
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 || n > adjudicator.MaxRobots {
			return refuse("players %q: want 1 to %d.", val, adjudicator.MaxRobots)
		}
		o.MaxPlayers = n
	case "missed-limit":
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return refuse("missed-limit %q: want a number of turns (0: never).", val)
		}
		o.MissedLimit = n
	case "on-missed-limit":
		v := strings.ToLower(val)
		if v != "ask" && v != "remove" {
			return refuse("on-missed-limit %q: want ask or remove.", val)
		}
		o.OnMissedLimit = v
	case "reminders":
		if strings.EqualFold(val, "none") {
			o.Reminders = []int64{}
			return nil
		}
		var rs []int64
		for _, f := range strings.Split(val, ",") {
			d, err := parseDuration(f)
			if err != nil || d <= 0 {
				return refuse("reminders %q: want lead times like 24h,2h or none.", val)
			}
			rs = append(rs, int64(d/time.Second))
		}
		o.Reminders = rs
	case "list":
		if val != "" && val != "none" && !strings.Contains(val, "@") {
			return refuse("list %q: want a mail address or none.", val)
		}
		if val == "none" {
			val = ""
		}
		s.ListAddress = val
	default:
		return refuse("unknown option %q (options: name, deadline, grace, missed, players, missed-limit, on-missed-limit, reminders, list).", key)
	}
	return nil
}

func settingsText(s store.GameSettings, o Options, g store.Game) string {
	dl := fmt.Sprintf("%d hours after each report", s.Deadline.Hours)
	if s.Deadline.Kind == store.DeadlineFixed {
		dl = "daily at " + s.Deadline.Clock + " UTC"
	}
	var rem []string
	for _, l := range o.leads() {
		rem = append(rem, l.String())
	}
	if len(rem) == 0 {
		rem = []string{"none"}
	}
	limit := "never"
	if o.MissedLimit > 0 {
		act := "the game master is asked to replace the player"
		if o.OnMissedLimit == "remove" {
			act = "the player is withdrawn"
		}
		limit = fmt.Sprintf("after %d missed turns in a row %s", o.MissedLimit, act)
	}
	list := s.ListAddress
	if list == "" {
		list = "none"
	}
	g.Missed = s.Missed
	return fmt.Sprintf("  name:            %s\n  deadline:        %s\n  grace:           %s\n  missed orders:   %s\n"+
		"  players:         at most %d\n  missed limit:    %s\n  reminders:       %s before the deadline\n  list:            %s\n",
		s.Name, dl, s.Grace, o.policy(g), o.maxPlayers(), limit, strings.Join(rem, ", "), list)
}
