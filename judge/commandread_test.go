package judge

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/mail"
)

// The command reader and the sign-off finder, made cheaper for the lines of every sheet
// (issue 24 item 7), read every text as they did: they are held to the old code, kept
// here as it was.

// parseCommandMailBefore is parseCommandMail as it was.
func parseCommandMailBefore(text string, reader game.MailReader) (cm *commandMail, ok bool) {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(text, "\n")
	cm = &commandMail{sheetLine: -1}
	for i := 0; i < len(lines); i++ {
		raw := lines[i]
		t := strings.TrimSpace(visible(raw))
		if strings.TrimRight(raw, " \t") == "--" {
			break
		}
		l := strings.ToLower(strings.Trim(t, "-_ "))
		if l == "original message" || l == "forwarded message" {
			break
		}
		if t == "" || strings.HasPrefix(t, ">") || strings.HasPrefix(t, "//") || (strings.HasPrefix(t, "#") && !isOrdersMarkerBefore(t)) ||
			strings.HasSuffix(strings.ToLower(t), "wrote:") {
			continue
		}
		if k, v, hok := headerBefore(t); hok {
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
		f := strings.Fields(t)
		verb := strings.ToUpper(strings.TrimRight(f[0], ":"))
		if isOrdersMarkerBefore(t) {
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
				if k, _, hok := headerBefore(strings.TrimSpace(l)); hok && k == "secret" {
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
				if hk, _, hok := headerBefore(strings.TrimSpace(l)); hok && hk == "secret" {
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

func headerBefore(line string) (key, val string, ok bool) {
	f := strings.Fields(strings.Replace(line, ":", " ", 1))
	if len(f) != 2 {
		return "", "", false
	}
	key, ok = headerWord[strings.ToLower(f[0])]
	return key, f[1], ok
}

func isOrdersMarkerBefore(t string) bool {
	l := strings.ToLower(strings.Trim(t, "-#=*[]<>_ :"))
	return l == "orders" && strings.TrimLeft(t, "-#=*[<_ ") != t
}

// signOffLinesBefore is signOffLines as it was.
func signOffLinesBefore(text, name, from string) []int {
	names := senderNamesBefore(name, from)
	if len(names) == 0 {
		return nil
	}
	lines := strings.Split(text, "\n")
	last := len(lines) - 1
	for last >= 0 && strings.TrimSpace(lines[last]) == "" {
		last--
	}
	var at []int
	for i := last; i >= 0 && i > last-2; i-- {
		if strings.TrimSpace(lines[i]) == "" || !signOffLineBefore(lines[i], names) {
			break
		}
		at = append(at, i)
	}
	if len(at) == 0 || at[len(at)-1] == 0 {
		return nil // nothing above it: the mail is all sign-off
	}
	// "Cheers," alone under the sheet is one; "Zoe" over "Cheers" is not
	if len(at) == 2 && !names[signOffName(lines[at[0]])] {
		at = at[:1]
	}
	return at
}
func signOffLineBefore(l string, names map[string]bool) bool {
	t := signOffName(l)
	if t == "" || utf8.RuneCountInString(t) > 60 {
		return false
	}
	if names[t] || closings[t] {
		return true
	}
	for _, sep := range []string{", ", "! ", " "} {
		if i := strings.LastIndex(t, sep); i > 0 && closings[strings.TrimRight(t[:i], ",.! ")] && names[strings.TrimSpace(t[i+len(sep):])] {
			return true
		}
	}
	return false
}
func senderNamesBefore(name, from string) map[string]bool {
	names := map[string]bool{}
	add := func(s string) {
		s = strings.ToLower(strings.TrimSpace(s))
		if utf8.RuneCountInString(s) >= 2 {
			names[s] = true
		}
	}
	add(name)
	if f := strings.Fields(name); len(f) > 1 {
		add(f[0])
	}
	if i := strings.LastIndexByte(from, '@'); i > 0 {
		add(from[:i])
	}
	return names
}

// commandCases are lines at the edges of the command reader: headers with and without
// ":", in any case, glued and spaced with every white space, verbs, markers, the lines
// that end a mail, attributions, letters that lower to ASCII from beyond it.
var commandCases = []string{
	"robot Zoombot", "ROBOT: Zoombot", "robot:Zoombot", "robot : Zoombot", "robot:: Zoombot", "robot\tZoombot",
	"robot\vZoombot", "robot\fZoombot", "robot Zoombot x", "robot", "bot Zoe", "Game spring", "PASSWORD hunter2",
	"passwordx hunter2", "secret k7dm-3xqp-9wtr-hzv4", "Secret:k7dm", "pw: x:y", ":robot Zoe", "robot Zoe:",
	"robot\u00a0Zoe", "robot Zoe\u0085", "ROBOT\u212a Zoe", "\u200brobot Zoe", "robot Zo\xffe",
	"STATUS", "status spring", "Status: spring", "HELP", "help!", "Help me", "JOIN spring Zapper", "join",
	"ORDERS", "#orders", "--- ORDERS ---", "[orders]", "ORDERS:", "orders please", "#ORDERS", "==orders==", "ORDERS\u0130",
	"BROADCAST spring hello", "PRESS spring all", "ENDPRESS", "PRESS", "--", "-- ", "-----Original Message-----",
	"---- Forwarded message ----", "ORİGİNAL MESSAGE", "On Monday Zoe wrote:", "Zoe WROTE:", "Zoe wrote", "wrote:",
	"> quoted", "// comment", "# comment", "P490 P670", "1: P490", "if damage > 4 then power down", "Hello", "Hi Zoe,",
	"Thanks, Zoe", "Zoe", "Cheers", "Cheers,", "Zoe Zoombot", "- Zoe", "\u2014Zoe", "Grüße", "Viele Grüße, Zoe", "", "   ",
	"UNOBSERVE spring", "LIST", "list games", "verylongwordthatisnoverbatall x", "verylongwordthatisnoverbatall",
}

func TestCommandMailAsBefore(t *testing.T) {
	check := func(text, name, from string) {
		t.Helper()
		for _, d := range commandReadingDiffs(text, name, from, true) {
			t.Error(d)
		}
	}
	for _, a := range commandCases {
		for _, b := range commandCases {
			check(a+"\n"+b, "Zoe Zoombot", "zoe@example.test")
			check("robot Zoombot\n"+a+"\n\n"+b+"\n", "Zoe", "zoe@example.test")
		}
	}
	for _, f := range corpusMails(t) {
		if m, err := mail.Extract(f); err == nil {
			check(m.Text, m.FromName, m.From)
			check(m.Stripped, m.FromName, m.From)
		}
	}
}

// FuzzCommandMailAsBefore: the command reader and the sign-off finder read any text as
// they did.
func FuzzCommandMailAsBefore(f *testing.F) {
	for i, c := range commandCases {
		f.Add(c+"\n"+commandCases[(i*7)%len(commandCases)]+"\nP490\n", "Zoe Zoombot", "zoe@example.test")
	}
	f.Fuzz(func(t *testing.T, text, name, from string) {
		if d := commandReadingDiffs(text, name, from, false); len(d) > 0 {
			t.Fatal(d[0])
		}
	})
}

// commandReadingDiffs are the differences between how the command reader, the
// sign-off finder and the header reader read text now and as they did (…Before), and
// with markers the ORDERS marker's too.
func commandReadingDiffs(text, name, from string, markers bool) []string {
	var d []string
	got, gok := parseCommandMail(text, testReader)
	want, wok := parseCommandMailBefore(text, testReader)
	if gok != wok || !reflect.DeepEqual(got, want) {
		d = append(d, fmt.Sprintf("%q: %v %+v, was %v %+v", text, gok, got, wok, want))
	}
	if got, want := signOffLines(text, name, from), signOffLinesBefore(text, name, from); !slices.Equal(got, want) {
		d = append(d, fmt.Sprintf("%q by %q <%s>: sign-off %v, was %v", text, name, from, got, want))
	}
	for _, l := range strings.Split(text, "\n") {
		gk, gv, gok := header(l)
		wk, wv, wok := headerBefore(l)
		if gk != wk || gv != wv || gok != wok {
			d = append(d, fmt.Sprintf("header(%q) = %q %q %v, was %q %q %v", l, gk, gv, gok, wk, wv, wok))
		}
		if markers && isOrdersMarker(l) != isOrdersMarkerBefore(l) {
			d = append(d, fmt.Sprintf("isOrdersMarker(%q) = %v", l, isOrdersMarker(l)))
		}
	}
	return d
}
