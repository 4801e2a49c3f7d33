package judge

import (
	"regexp"
	"strings"

	"github.com/rallyjudge/rallyjudge/game"
)

// Reading a mail body as a command mail: its header lines (game, robot, secret), its
// command lines, and where an ORDERS sheet or a BROADCAST text begins.

// commandMail is a mail's commands and header lines.
type commandMail struct {
	game, secret, robot string
	headers             []string // the header lines as written, to go before an ORDERS sheet
	cmds                []Command
	// unknown are lines after the first command that are no command: a sign-off
	// ("Grüße," / "Jürgen"), a typo. They are named once in the reply, never run.
	unknown   []Command
	sheet     *string // after ORDERS
	sheetLine int     // the line (0-based) of ORDERS; -1 without
}

var headerWord = map[string]string{"game": "game", "robot": "robot", "bot": "robot", "secret": "secret",
	"password": "secret", "passwd": "secret", "pw": "secret", "pass": "secret"}

// header reads "key value" or "key: value" for a header key.
func header(line string) (key, val string, ok bool) {
	if isASCII(line) {
		return headerASCII(line)
	}
	f := strings.Fields(strings.Replace(line, ":", " ", 1))
	if len(f) != 2 {
		return "", "", false
	}
	key, ok = headerWord[strings.ToLower(f[0])]
	return key, f[1], ok
}

// headerASCII is header of a line in ASCII, without its copies (every line of a sheet
// is asked, issue 24 item 7): its first ":" taken as a space, the line must be two
// words apart at ASCII white space, which is all strings.Fields splits such a line at.
func headerASCII(line string) (key, val string, ok bool) {
	colon := strings.IndexByte(line, ':')
	var f [2]string
	n := 0
	for i := 0; i < len(line); {
		for i < len(line) && (i == colon || asciiSpace(line[i])) {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		for j < len(line) && j != colon && !asciiSpace(line[j]) {
			j++
		}
		if n == len(f) {
			return "", "", false
		}
		f[n], n = line[i:j], n+1
		i = j
	}
	if n != 2 {
		return "", "", false
	}
	var low [len("password")]byte // the longest key
	if len(f[0]) > len(low) {
		return "", f[1], false
	}
	for i := 0; i < len(f[0]); i++ {
		low[i] = lowerASCII(f[0][i])
	}
	key, ok = headerWord[string(low[:len(f[0])])]
	return key, f[1], ok
}

// asciiSpace says whether c is white space as unicode.IsSpace says of an ASCII byte.
func asciiSpace(c byte) bool {
	return c == ' ' || c >= '\t' && c <= '\r'
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// visible is a line as the player sees it: the zero-width characters a web client or a
// paste leaves (U+200B and its kin, a byte-order mark, a soft hyphen) dropped and the
// odd spaces (no-break, narrow, ideographic) made plain, as the sheet reader does
// (orders/clean.go). "\u200bsecret ..." was no header line and "\u200bSTATUS" no
// command, so a command mail pasted from a web page was read as a sheet.
func visible(s string) string {
	if isASCII(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad':
			return -1
		case '\u00a0', '\u2007', '\u202f', '\u3000', '\u2002', '\u2003', '\u2009':
			return ' '
		}
		return r
	}, s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

var bareWord = regexp.MustCompile(`^[A-Za-z]+[!.?]?$`)

// parseCommandMail reads a mail body as a command mail; ok is false when it is not one.
func parseCommandMail(text string, reader game.MailReader) (cm *commandMail, ok bool) {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(text, "\n")
	cm = &commandMail{sheetLine: -1}
	for i := 0; i < len(lines); i++ {
		raw := lines[i]
		t := strings.TrimSpace(visible(raw))
		if strings.TrimRight(raw, " \t") == "--" {
			break
		}
		if l := strings.Trim(t, "-_ "); lowerIs(l, "original message") || lowerIs(l, "forwarded message") {
			break
		}
		if t == "" || strings.HasPrefix(t, ">") || strings.HasPrefix(t, "//") || (strings.HasPrefix(t, "#") && !isOrdersMarker(t)) ||
			lowerEndsWith(t, "wrote:") {
			continue
		}
		if k, v, hok := header(t); hok {
			switch k {
			case "game":
				cm.game = strings.ToLower(v)
			case "robot":
				cm.robot = v
			case "secret":
				cm.secret = v
			}
			cm.headers = append(cm.headers, t)
			continue
		}
		if isASCII(t) && !mayBeCommand(t) && len(cm.cmds) == 0 && len(cm.unknown) == 0 {
			// the first line of most sheets ("robot Zoe" is read above): no verb, two
			// words or more, so the mail is an order sheet (as below, without the copies)
			if strings.ContainsAny(t, " \t\n\v\f\r") {
				return nil, false
			}
		}
		f := strings.Fields(t)
		verb := strings.ToUpper(strings.TrimRight(f[0], ":"))
		if isOrdersMarker(t) {
			verb = "ORDERS"
		}
		if _, known := verbs[verb]; !known {
			if len(cm.cmds) == 0 && len(cm.unknown) == 0 && !(len(f) == 1 && bareWord.MatchString(t) && notOrders(reader, t)) {
				return nil, false // the mail is an order sheet
			}
			cm.unknown = append(cm.unknown, Command{Verb: "?" + f[0], Line: t, N: i + 1})
			continue
		}
		c := Command{Verb: verb, Args: f[1:], Line: t, N: i + 1}
		switch verb {
		case "ORDERS":
			rest := strings.Join(lines[i+1:], "\n")
			cm.sheet, cm.sheetLine = &rest, i
			cm.cmds = append(cm.cmds, c)
			return cm.done()
		case "BROADCAST":
			var body []string
			if first := strings.TrimSpace(t[len(f[0]):]); first != "" {
				body = append(body, first)
			}
			for _, l := range lines[i+1:] {
				if strings.TrimRight(l, " \t") == "--" {
					break
				}
				if k, _, hok := header(strings.TrimSpace(l)); hok && k == "secret" {
					continue
				}
				body = append(body, strings.TrimRight(l, " \t"))
			}
			c.Text = strings.TrimSpace(strings.Join(body, "\n"))
			c.Line = "BROADCAST"
			cm.cmds = append(cm.cmds, c)
			return cm.done()
		}
		if verb == "PRESS" {
			// The message is the lines below, up to ENDPRESS (commands may follow it), a
			// signature, or the end of the mail; "secret" lines are left out.
			var body []string
			k := i + 1
			for ; k < len(lines); k++ {
				l := lines[k]
				if strings.TrimRight(l, " \t") == "--" {
					break
				}
				if strings.EqualFold(strings.TrimSpace(l), "ENDPRESS") {
					break
				}
				if hk, _, hok := header(strings.TrimSpace(l)); hok && hk == "secret" {
					continue
				}
				body = append(body, strings.TrimRight(l, " \t"))
			}
			c.Text = strings.TrimSpace(strings.Join(body, "\n"))
			cm.cmds = append(cm.cmds, c)
			if k >= len(lines) || strings.TrimRight(lines[k], " \t") == "--" {
				return cm, true
			}
			i = k // ENDPRESS: go on with the commands after it
			continue
		}
		cm.cmds = append(cm.cmds, c)
	}
	return cm.done()
}

// done ends reading: a mail of no known command is one unknown command (answered with
// the help text once); otherwise its unknown lines are only named in the reply.
func (cm *commandMail) done() (*commandMail, bool) {
	if len(cm.cmds) == 0 && len(cm.unknown) > 0 {
		cm.cmds, cm.unknown = cm.unknown[:1], nil
	}
	return cm, len(cm.cmds) > 0
}

func isOrdersMarker(t string) bool {
	return lowerIs(strings.Trim(t, "-#=*[]<>_ :"), "orders") && strings.TrimLeft(t, "-#=*[<_ ") != t
}

// lowerIs says whether strings.ToLower(s) == low, a lower-case ASCII word, without the
// copy when s is ASCII (beyond it, "İ" and the Kelvin sign lower to ASCII letters).
func lowerIs(s, low string) bool {
	if !isASCII(s) {
		return strings.ToLower(s) == low
	}
	return len(s) == len(low) && strings.EqualFold(s, low)
}

// lowerEndsWith says whether strings.ToLower(s) ends with suffix, lower-case ASCII
// with no letter any other rune lowers to (no i or k).
func lowerEndsWith(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix) && isASCII(s[len(s)-len(suffix):])
}

// mayBeCommand says whether t, a line in ASCII without white space around it, may be
// a command line: its first word (without a ":" after it) a verb in any case, or the
// line the ORDERS marker.
func mayBeCommand(t string) bool {
	w := t
	for i := 0; i < len(t); i++ {
		if asciiSpace(t[i]) {
			w = t[:i]
			break
		}
	}
	w = strings.TrimRight(w, ":")
	var up [16]byte
	if len(w) > len(up) {
		return isOrdersMarker(t)
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		up[i] = c
	}
	if _, known := verbs[string(up[:len(w)])]; known {
		return true
	}
	return isOrdersMarker(t)
}

func notOrders(reader game.MailReader, line string) bool {
	return reader == nil || !reader.ReadsAsSheet(line)
}
