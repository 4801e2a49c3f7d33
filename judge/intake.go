package judge

import (
	"fmt"
	"io"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// What the judge reads in a mail, in one place, so that the daemon and `rallyjudge check
// --mail` read a mail alike (issue 12):
//
//  1. mail.Extract: MIME, charsets, transfer encodings, format=flowed, HTML made text;
//  2. mail.StripReply: the player's own text, line for line: quoted lines, attributions
//     and client signatures blank, the signature and an unprefixed original cut off, so
//     no quoted copy of the judge's own mail (with its placeholder secret) is ever read;
//  3. command mail or sheet (parseCommandMail); a mail whose only command is a leading
//     "#orders" marker is a sheet;
//  4. the sheet is parsed from the same lines, those before an ORDERS command blanked
//     and a sign-off under it ("Thanks, Zoe": signoff.go) blank, so every problem names
//     the line as the player sees it in the mail they sent.

// Reading is what the judge reads in one mail.
type Reading struct {
	Msg *mail.Message
	// Text is the player's own text (Msg.Stripped): line n is line n of the mail body.
	Text string
	// Commands is set for a command mail (nil for a plain sheet).
	cm *commandMail
	// Sheet is the order sheet read (nil for a command mail without ORDERS), with the
	// problems of reading it (a game.SheetError): its envelope, read by the catalogue's
	// game.MailReader (reader).
	Sheet    *game.MailSheet
	SheetErr error
	// YAML says the sheet was read as YAML (an attached .yaml file).
	YAML   bool
	reader game.MailReader
	// ahead is the move read ahead of judging (readAhead, game.MoveReader); nil: read
	// when judged.
	ahead *game.ReadMove
	// checked is the move checked ahead of judging, on the position the reader
	// guessed (movesahead.go); judging takes it only on that very position.
	checked *checkedAhead
	// SheetText is the text the sheet was parsed from: Text with the lines before an
	// ORDERS command blanked. Line numbers in problems are lines of it (and of the mail).
	SheetText string
	// Forwarded says where Text came from when it is a mail of the sender's own that
	// this one forwards: "inline" (its lines are still the mail's) or "attached" (they
	// are the attached mail's); "" otherwise.
	Forwarded string
	// known is what judging works out from the mail alone, worked out ahead of it
	// (knowAhead)
	known mailFacts
}

// mailFacts are what judging works out from a mail alone, with nothing of the
// database: worked out by the goroutines reading a batch ahead of the writer
// (batchItem.read), they cost the writer, the one part of intake that cannot be shared,
// nothing (issue 24 item 7). The zero value knows nothing: the writer works each out.
type mailFacts struct {
	set     bool // worked out
	auto    bool // mail.IsAutomatic, and why
	autoWhy string
	tag     string // the subject's [RR TAG] (subjectTag)
	keyed   string // store.KeyedHash of the sheet's secret, "" when it has none
}

// knowAhead works out r's mailFacts, key being the store's secret key.
func (r *Reading) knowAhead(key []byte) {
	k := mailFacts{set: true, tag: subjectTag(r.Msg.Subject)}
	k.auto, k.autoWhy = mail.IsAutomatic(r.Msg)
	if r.Sheet != nil && r.Sheet.Secret != "" {
		k.keyed = store.KeyedHash(key, r.Sheet.Secret)
	}
	r.known = k
}

// automatic is mail.IsAutomatic(msg), as worked out ahead when rd was.
func automatic(msg *mail.Message, rd *Reading) (bool, string) {
	if rd != nil && rd.known.set && rd.Msg == msg {
		return rd.known.auto, rd.known.autoWhy
	}
	return mail.IsAutomatic(msg)
}

// tagOf is subjectTag(msg.Subject), as worked out ahead when rd was.
func tagOf(msg *mail.Message, rd *Reading) string {
	if rd != nil && rd.known.set && rd.Msg == msg {
		return rd.known.tag
	}
	return subjectTag(msg.Subject)
}

// Commands are the command lines of a command mail, in order (nil for a sheet).
func (r *Reading) Commands() []Command {
	if r.cm == nil {
		return nil
	}
	return r.cm.cmds
}

// Game is the game the mail's sheet is for, as the judge picks it (inbound.go): the
// sheet's game line, else the subject's [RR TAG]; "" when neither names one.
func (r *Reading) Game() string {
	if r.Sheet != nil && r.Sheet.Game != "" {
		return strings.ToLower(r.Sheet.Game)
	}
	return strings.ToLower(subjectTag(r.Msg.Subject))
}

// Read reads a message's text as the judge does, its order sheet with reader (the
// catalogue's game.MailReader; nil: no mail is read as a sheet).
func Read(msg *mail.Message, reader game.MailReader) *Reading {
	if strings.TrimSpace(msg.Stripped) == "" && unobserveSubject.MatchString(msg.Subject) {
		// the mail a mail program sends for an observer's List-Unsubscribe header
		// (observerUnsubscribe) with the subject only: some ignore the URI's body field
		// (RFC 6068 lets them). Nothing else is read from a subject.
		return readText(msg, strings.TrimSpace(msg.Subject)+"\n", reader)
	}
	r := readText(msg, msg.Stripped, reader)
	if r.cm == nil && r.Sheet != nil && r.Sheet.Secret == "" && !r.Sheet.HasOrders {
		// nothing of a sheet above a message forwarded inline: when the sender forwards
		// their own mail (a sheet first sent to a wrong address: "Fwd: [RR spring]
		// orders"), the sheet is in it. Its lines keep their numbers in the mail; the
		// note above it is not read.
		if from, body, ok := mail.Forwarded(msg.Text); ok && strings.EqualFold(from, msg.From) {
			lines := strings.Split(msg.Text, "\n")
			for i := 0; i < body && i < len(lines); i++ {
				lines[i] = ""
			}
			if fr := readText(msg, mail.StripReply(strings.Join(lines, "\n")), reader); fr.cm != nil || (fr.Sheet != nil && fr.Sheet.Secret != "") {
				fr.Forwarded = "inline"
				return fr
			}
		}
		// or one attached ("Forward As Attachment"): its lines are those of the mail
		// attached
		for _, fm := range msg.Forwards {
			if !strings.EqualFold(fm.From, msg.From) {
				continue
			}
			if fr := readText(msg, fm.Stripped, reader); fr.cm != nil || (fr.Sheet != nil && fr.Sheet.Secret != "") {
				fr.Forwarded = "attached"
				return fr
			}
		}
	}
	return r
}

// unobserveSubject is the subject of the mail an observer's List-Unsubscribe asks for.
var unobserveSubject = regexp.MustCompile(`(?i)^\s*UNOBSERVE\s+[a-z0-9][a-z0-9-]*\s*$`)

// readText reads text, the player's own lines of msg, as a command mail or a sheet.
func readText(msg *mail.Message, text string, reader game.MailReader) *Reading {
	r := &Reading{Msg: msg, Text: text, reader: reader}
	cm, isCmd := parseCommandMail(r.Text, reader)
	switch {
	case !isCmd:
		r.SheetText = r.Text
	case cm.sheetLine >= 0:
		if len(cm.cmds) > 1 || len(cm.headers) > 0 {
			r.cm = cm
		} // else ORDERS (or "#orders", as the welcome shows) comes first: a sheet
		lines := strings.Split(r.Text, "\n")
		for i := 0; i < cm.sheetLine && i < len(lines); i++ {
			lines[i] = ""
		}
		if cm.sheetLine < len(lines) && !isOrdersMarker(strings.TrimSpace(lines[cm.sheetLine])) {
			lines[cm.sheetLine] = "" // the verb ORDERS; a marker stays and starts the sheet
		}
		r.SheetText = strings.Join(lines, "\n")
	default:
		r.cm = cm
		return r
	}
	if at := signOffLines(r.SheetText, msg.FromName, msg.From); at != nil {
		lines := strings.Split(r.SheetText, "\n")
		for _, i := range at {
			lines[i] = "" // a sign-off under the sheet (signoff.go): not an order
		}
		r.SheetText = strings.Join(lines, "\n")
	}
	r.Sheet = &game.MailSheet{}
	if reader != nil {
		// an attached .yaml is YAML whether or not it starts with "---", as `rallyjudge
		// check` reads a .yaml file: the text reader took its "program: [...]" for orders
		r.YAML = msg.Source == mail.SourceAttachment && isYAMLName(msg.SourceName)
		s, err := reader.ReadSheet(r.SheetText, r.YAML)
		r.Sheet, r.SheetErr = &s, err
	}
	if cm != nil {
		// header lines written above ORDERS count for the sheet, unless it writes its own
		if r.Sheet.Game == "" {
			r.Sheet.Game = cm.game
		}
		if r.Sheet.Seat == "" {
			r.Sheet.Seat = cm.robot
		}
		if r.Sheet.Secret == "" {
			r.Sheet.Secret = cm.secret
		}
	}
	return r
}

// isYAMLName reports whether an attachment's file name says YAML.
func isYAMLName(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".yaml", ".yml":
		return true
	}
	return false
}

// problemsOf are a sheet's problems, syntax and validation together, sorted by line
// (then column), each with the line it is about quoted beneath it as the player wrote
// it (a secret hidden).
func problemsOf(text string, syntax error, more []game.SheetProblem) (lines []string, n int) {
	var ps []game.SheetProblem
	var other []string
	if syntax != nil {
		if se, ok := syntax.(game.SheetError); ok {
			ps = append(ps, se.SheetProblems()...)
		} else {
			other = append(other, syntax.Error())
		}
	}
	ps = append(ps, more...)
	sort.SliceStable(ps, func(a, b int) bool {
		if ps[a].Line != ps[b].Line {
			return ps[a].Line < ps[b].Line
		}
		return ps[a].Col < ps[b].Col
	})
	src := strings.Split(text, "\n")
	for _, p := range ps {
		s := p.Text
		if q := quotedLine(src, p.Line); q != "" {
			s += "\n      " + q
		}
		lines = append(lines, s)
	}
	return append(other, lines...), len(other) + len(ps)
}

// withMarkerHint is hint after the sheet's own advice (RoboRally's: lines of prose and
// no markers), when syntax has one.
func withMarkerHint(hint string, syntax error) string {
	if h := hintOf(syntax); h != "" {
		return h + "\n\n" + hint
	}
	return hint
}

// hintOf is a sheet's problems' advice for the player (game.SheetError), "" for none.
func hintOf(syntax error) string {
	if se, ok := syntax.(game.SheetError); ok {
		return se.Hint()
	}
	return ""
}

// secretOutsideBlock is the line (from 1) of a secret line that stands outside the lines
// a sheet's markers (#orders ... #end) give to read; 0 when there is none.
func secretOutsideBlock(reader game.MailReader, text string) int {
	if reader == nil {
		return 0
	}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	first, last := reader.SheetBlock(text)
	for i, l := range lines {
		if i >= first && i < last {
			continue
		}
		if f := strings.Fields(strings.ToLower(l)); len(f) > 1 && strings.TrimSuffix(f[0], ":") == "secret" {
			return i + 1
		}
	}
	return 0
}

// quotedLine is line n (1-based) of src for an error message: tabs as spaces, clipped,
// a secret's value hidden; "" when there is no such line.
func quotedLine(src []string, n int) string {
	if n < 1 || n > len(src) {
		return ""
	}
	// invisible characters dropped, so that a secret with a zero-width space before or
	// inside it is still seen (and hidden) as one
	l := strings.TrimRight(strings.ReplaceAll(visible(src[n-1]), "\t", " "), " ")
	if strings.TrimSpace(l) == "" {
		return ""
	}
	if m := secretLine.FindStringSubmatchIndex(l); m != nil {
		l = l[:m[2]] + "(secret)" + l[m[3]:]
	}
	if utf8.RuneCountInString(l) > 100 {
		l = string([]rune(l)[:100]) + " ..."
	}
	return fmt.Sprintf("| %s", l)
}

// Describe writes what the judge reads in the mail, for `rallyjudge check --mail`: where
// the text came from, a command mail's commands, the sheet's lines with their numbers
// in the mail (a secret hidden), the problems reading it, and the sheet as structured
// orders. It reports whether the sheet (if any) was read without problems.
func (r *Reading) Describe(w io.Writer) bool {
	m := r.Msg
	fmt.Fprintf(w, "from: %s\nsubject: %s\n", m.From, m.Subject)
	src := string(m.Source)
	if m.Source == mail.SourceAttachment {
		src += " " + m.SourceName
	}
	if m.Flowed {
		src += ", format=flowed (unwrapped)"
	}
	fmt.Fprintf(w, "read from: %s\n", src)
	switch r.Forwarded {
	case "inline":
		fmt.Fprintln(w, "it forwards a mail of the sender's own: read from that")
	case "attached":
		fmt.Fprintln(w, "a mail of the sender's own is attached: read from that (line numbers are that mail's)")
	}
	if m.Encrypted {
		fmt.Fprintln(w, "encrypted (OpenPGP or S/MIME): the judge cannot read what is encrypted")
	}
	if tag := subjectTag(m.Subject); tag != "" {
		fmt.Fprintf(w, "game in the subject: %s\n", tag)
	}
	if r.cm != nil {
		fmt.Fprintln(w, "a command mail:")
		for _, c := range r.cm.cmds {
			fmt.Fprintf(w, "  line %d: %s\n", c.N, describeCommand(c))
		}
		for _, c := range r.cm.unknown {
			fmt.Fprintf(w, "  line %d: not a command, not read: %q\n", c.N, c.Line)
		}
	}
	if r.Sheet == nil {
		return true
	}
	fmt.Fprintln(w, "the order sheet, with its lines in the mail:")
	lines := strings.Split(r.SheetText, "\n")
	first, last := 0, len(lines)
	if r.reader != nil {
		first, last = r.reader.SheetBlock(r.SheetText)
	}
	shown := 0
	for i := first; i < last && i < len(lines); i++ {
		if q := quotedLine(lines, i+1); q != "" {
			fmt.Fprintf(w, "%6d %s\n", i+1, q)
			shown++
		}
	}
	if shown == 0 {
		fmt.Fprintln(w, "  (no lines: nothing of the player's own text is a sheet)")
	}
	errs, n := problemsOf(r.SheetText, r.SheetErr, nil)
	if n > 0 {
		fmt.Fprintf(w, "%d problem(s) reading it:\n", n)
		for _, e := range errs {
			fmt.Fprintf(w, "  %s\n", e)
		}
		if h := hintOf(r.SheetErr); h != "" {
			fmt.Fprintln(w, h)
		}
	}
	fmt.Fprintln(w, "read as:")
	if r.Sheet.Read != nil {
		w.Write(r.Sheet.Read())
	}
	return n == 0
}

// subjectTag is the game a subject names ("[RR spring]"), lower case, or "".
func subjectTag(subject string) string {
	if m := tagInSubject.FindStringSubmatch(subject); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}

// Problems are the sheet's problems with more (a check's: nil for the reading's
// alone), as the judge's reply lists them: sorted by line, each line quoted; n counts
// them.
func (r *Reading) Problems(more []game.SheetProblem) (lines []string, n int) {
	return problemsOf(r.SheetText, r.SheetErr, more)
}

// describeCommand is a command as check --mail shows it: the verb with its arguments
// ("JOIN spring Zapper"), the settings CREATE was given, a BROADCAST's text in quotes.
func describeCommand(c Command) string {
	verb := strings.TrimPrefix(c.Verb, "?")
	if verb == "CONFIRM" && len(c.Args) > 0 {
		return verb + " (code)" // a one-time code is kept as a sheet's secret is: never shown
	}
	parts := append([]string{verb}, c.Args...)
	for _, kv := range c.KV {
		parts = append(parts, kv[0]+"="+kv[1])
	}
	if c.Text != "" {
		parts = append(parts, fmt.Sprintf("%q", c.Text))
	}
	return strings.Join(parts, " ")
}
