package adjudicator

import "github.com/rallyjudge/rallyjudge/game"

// NameRuneProblem is game.NameRuneProblem: the check of a shown name's characters is
// every game's, not RoboRally's.
func NameRuneProblem(r rune) string { return game.NameRuneProblem(r) }

// NameProblem is game.NameProblem.
func NameProblem(s string) string { return game.NameProblem(s) }
