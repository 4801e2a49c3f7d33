package judge

import (
	"fmt"
	"strings"
	"time"
)

// Time zones: a player may ask for deadlines in their own zone (TIMEZONE ZONE, or SET
// TIMEZONE ZONE); every deadline the judge tells that player is then written in UTC and
// in their zone: "Wed 4 Mar 2026 18:00 UTC (19:00 Europe/Berlin)". The clock itself
// stays UTC (deadline rules, DEADLINE) so that every player's deadline is the same
// moment.

// checkZone loads an IANA zone name; "UTC" and "none" clear it.
func checkZone(name string) (*time.Location, string, error) {
	switch strings.ToLower(name) {
	case "", "utc", "none", "gmt", "z":
		return nil, "", nil
	}
	// "Local" is the server's own zone (time.LoadLocation): no zone a player means, and
	// it would tell the server's clock setting.
	if strings.EqualFold(name, "local") || len(name) > 64 || strings.ContainsAny(name, " \t\\") || strings.HasPrefix(name, "/") || strings.Contains(name, "..") {
		return nil, "", refuse("%q is not a time zone name (like Europe/Berlin or America/New_York).", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, "", refuse("%q is not a time zone name (like Europe/Berlin or America/New_York).", name)
	}
	return loc, loc.String(), nil
}

// deadlineIn is deadlineText with the time in zone as well ("" for UTC only).
func deadlineIn(t time.Time, zone string) string {
	s := deadlineText(t)
	if t.IsZero() || zone == "" {
		return s
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return s
	}
	l := t.In(loc)
	if l.YearDay() != t.UTC().YearDay() {
		return fmt.Sprintf("%s (%s %s)", s, l.Format("Mon 2 Jan 15:04"), zone)
	}
	return fmt.Sprintf("%s (%s %s)", s, l.Format("15:04"), zone)
}

func (j *Judge) cmdTimezone(e *cmdEnv, c Command) (string, error) {
	if len(c.Args) != 1 {
		return "", refuse("write TIMEZONE ZONE, like TIMEZONE Europe/Berlin (TIMEZONE UTC for UTC only).")
	}
	_, zone, err := checkZone(c.Args[0])
	if err != nil {
		return "", err
	}
	if err := e.tx.SetPlayerTimezone(e.player.ID, zone); err != nil {
		return "", err
	}
	e.player.Timezone = zone
	if err := j.audit(e, "timezone", zone); err != nil {
		return "", err
	}
	if zone == "" {
		return "Your deadlines are shown in UTC only.\n", nil
	}
	return fmt.Sprintf("Your deadlines are shown in UTC and in %s. This turn's: %s.\n", zone, deadlineIn(e.game.DeadlineAt, zone)), nil
}
