// Package templates renders the judge's mails from templates: its own (files/*.tmpl:
// the rejection of a mail, every notice it writes itself, the frame of a game's report
// behind the game seam) and a game's own (Source: RoboRally's turn report, welcome and
// acknowledgement, which live with the game in package roborally/narrate).
// text/template renders the text parts, html/template the HTML parts.
//
// Every template, the judge's and the games', can be overridden by a game master's
// directory holding a file of the same name (templates_dir); a game's templates are
// layered under the same overrides (Set.With), so an override reaches them however
// the set was loaded. This package renders; it never sends mail, draws pictures (the
// caller names them by Content-ID), touches the store or decides a rule, and it names
// no game: what a game's mail says is the game's.
package templates
