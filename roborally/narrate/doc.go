// Package narrate is what RoboRally's mails say: the narration of a turn's event log
// ("P790 Zoom plays Move 3: moves 2 to 4,5, pushing Twonky into the pit at 4,6; Twonky
// is destroyed"), the public status of every robot, a player's hand, mat and order
// sheet for the next turn, the standings, and the templates of the turn report, the
// welcome and the acknowledgement (files/*.tmpl, embedded), in the postal wording and
// the 2023 one (narrate2023.go, report2023.go).
//
// It is RoboRally's, so it lives with the game, not in package templates, which names
// no game: the judge renders these templates through its own set (templates.Source,
// game.Templater), so a game master's overrides reach them. It is a package of its own
// rather than part of package roborally because the data and the words of a report
// are apart from playing the game: its golden files test the words alone, and its
// importers (roborally, the judge's own RoboRally path until it goes) need nothing
// else of the game. It renders; it never sends mail, draws pictures or decides a rule.
package narrate
