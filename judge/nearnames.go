package judge

import (
	"fmt"
	"strings"

	"github.com/rallyjudge/rallyjudge/internal/near"
	"github.com/rallyjudge/rallyjudge/store"
)

// Names a person writes are matched as they say them: a robot written "Zoë" or "ZOE"
// is Zoe (case and accents aside, internal/near), and a game or robot that does not
// exist is answered with the near ones ("did you mean crash?"), never with the
// store's own words (issue 22).

// playerByRobot is the player whose robot is name: the same name without regard to
// case first, else the one robot whose name is the same with accents taken off; nil
// when none is.
func playerByRobot(players []store.Player, name string) *store.Player {
	for i := range players {
		if strings.EqualFold(players[i].Robot, name) {
			return &players[i]
		}
	}
	robots := robotNames(players)
	if m, ok := near.Match(name, robots); ok {
		for i := range players {
			if players[i].Robot == m {
				return &players[i]
			}
		}
	}
	return nil
}

func robotNames(players []store.Player) []string {
	names := make([]string, 0, len(players))
	for _, p := range players {
		names = append(names, p.Robot)
	}
	return names
}

// robotHint follows "game X has no robot %q.": " Did you mean Zapper?", or the robots
// there are.
func robotHint(players []store.Player, name string) string {
	return near.Sentence(near.Hint(name, robotNames(players), "robots are"))
}

// gameHint follows "there is no game %q here.": the near games, or the games there are
// (open, running or paused; finished ones only when near).
func gameHint(tx *store.Tx, tag string) string {
	gs, err := tx.Games()
	if err != nil {
		return ""
	}
	var all, live []string
	for _, g := range gs {
		all = append(all, g.Tag)
		if g.Status != store.GameOver {
			live = append(live, g.Tag)
		}
	}
	if m := near.Matches(tag, all); len(m) > 0 {
		return near.Sentence(near.Hint(tag, all, "games here are"))
	}
	return near.Sentence(near.Hint(tag, live, "games here are"))
}

// NoGame is the error for a game tag that names no game, for the command line:
// `there is no game "crsh" here; did you mean crash?` (never the store's words).
func NoGame(tx *store.Tx, tag string) error {
	h := strings.TrimSpace(gameHint(tx, tag))
	if h != "" {
		h = "; " + strings.ToLower(h[:1]) + strings.TrimSuffix(h[1:], ".")
	}
	return fmt.Errorf("there is no game %q here%s", tag, h)
}
