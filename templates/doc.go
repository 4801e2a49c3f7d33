// Package templates turns a resolved turn into words and mail bodies: the narration of
// the event log ("P790 Zoom plays Move 3: moves 3, pushes Twonky into a pit; Twonky is
// destroyed"), and the text templates of reports, acknowledgements and replies.
//
// Templates are embedded (files/*.tmpl) and can be overridden by a game master's
// directory holding files of the same names. This package renders; it never sends mail,
// touches the store or decides a rule.
package templates
