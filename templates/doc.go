// Package templates turns a resolved turn into words and mail bodies: the narration of
// the event log ("P790 Zoom plays Move 3: moves 2 to 4,5, pushing Twonky into the pit at
// 4,6; Twonky is destroyed"), the public status of every robot, a player's order sheet
// for the next turn, and the templates of reports (text/template for the text part,
// html/template for the HTML part), acknowledgements, welcomes and rejections.
//
// Templates are embedded (files/*.tmpl) and can be overridden by a game master's
// directory holding files of the same names. This package renders; it never sends mail,
// draws pictures (the caller names them by Content-ID), touches the store or decides a
// rule.
package templates
