package mail

import (
	"html"
	"strings"
)

// HTMLToText turns an HTML body into plain text for the order parser: tags are dropped, br, p,
// div, li, tr, headings and similar block elements become line breaks, entities are decoded,
// runs of white space inside text collapse to one space (except inside pre), script, style, head
// and title are left out, and blockquote content is prefixed with "> " per level so that quoted
// replies look like quoted plain-text replies. It never fails: malformed markup is read as well
// as it can be.
func HTMLToText(s string) string {
	var w htmlText
	i := 0
	for i < len(s) {
		if s[i] != '<' {
			j := strings.IndexByte(s[i:], '<')
			if j < 0 {
				j = len(s) - i
			}
			w.text(s[i : i+j])
			i += j
			continue
		}
		// a comment, a declaration or a tag
		if strings.HasPrefix(s[i:], "<!--") {
			end := strings.Index(s[i+4:], "-->")
			if end < 0 {
				break
			}
			i += 4 + end + 3
			continue
		}
		end := tagEnd(s, i+1)
		if end < 0 {
			// a lone '<' that starts no tag: keep it as text
			w.text(s[i:])
			break
		}
		name, closing := tagName(s[i+1 : end])
		i = end + 1
		if name == "" {
			continue // "<!DOCTYPE ...>", "<?xml ...>" and the like
		}
		switch name {
		case "script", "style", "head", "title":
			if closing {
				continue
			}
			// skip to the matching end tag
			k := indexFold(s[i:], "</"+name)
			if k < 0 {
				i = len(s)
				continue
			}
			i += k
			if e := strings.IndexByte(s[i:], '>'); e >= 0 {
				i += e + 1
			} else {
				i = len(s)
			}
		case "br":
			w.newline()
		case "pre":
			w.block()
			if closing {
				w.pre--
			} else {
				w.pre++
			}
		case "blockquote":
			w.block()
			if closing {
				if w.quote > 0 {
					w.quote--
				}
			} else {
				w.quote++
			}
		case "p", "div", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6",
			"hr", "dl", "dt", "dd", "section", "article", "header", "footer", "address", "center":
			w.block()
		case "td", "th":
			if closing {
				w.text(" ")
			}
		}
	}
	return w.String()
}

// tagEnd returns the index of the '>' closing the tag whose name starts at i, minding quoted
// attribute values, or -1 if there is none or s[i] cannot start a tag.
func tagEnd(s string, i int) int {
	if i >= len(s) {
		return -1
	}
	c := s[i]
	if !(c == '/' || c == '!' || c == '?' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')) {
		return -1
	}
	var q byte
	for j := i; j < len(s); j++ {
		switch {
		case q != 0:
			if s[j] == q {
				q = 0
			}
		case s[j] == '"' || s[j] == '\'':
			q = s[j]
		case s[j] == '>':
			return j
		}
	}
	return -1
}

// tagName returns the lower-case element name of a tag's inside ("br/", "/p", "div class=x").
func tagName(t string) (name string, closing bool) {
	if strings.HasPrefix(t, "/") {
		closing = true
		t = t[1:]
	}
	n := 0
	for n < len(t) {
		c := t[n]
		if !(('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')) {
			break
		}
		n++
	}
	return strings.ToLower(t[:n]), closing
}

// indexFold is strings.Index ignoring ASCII case.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// htmlText collects text lines for HTMLToText.
type htmlText struct {
	b       strings.Builder
	line    strings.Builder // the current line, without the quote prefix
	pre     int
	quote   int
	lineQ   int  // quote depth of the current line, fixed when it gets its first text
	space   bool // a space is pending before the next word
	blanks  int  // blank lines written in a row
	started bool // any text written yet
}

func (w *htmlText) text(raw string) {
	t := html.UnescapeString(raw)
	t = strings.ReplaceAll(t, "\u00a0", " ")
	if w.pre > 0 {
		for k, part := range strings.Split(strings.ReplaceAll(t, "\r\n", "\n"), "\n") {
			if k > 0 {
				w.newline()
			}
			w.word(part)
		}
		return
	}
	fields := strings.FieldsFunc(t, isHTMLSpace)
	if len(fields) == 0 {
		if t != "" {
			w.space = true
		}
		return
	}
	if isHTMLSpace(rune(t[0])) {
		w.space = true
	}
	for k, f := range fields {
		if (k > 0 || w.space) && w.line.Len() > 0 {
			w.line.WriteByte(' ')
		}
		w.word(f)
	}
	w.space = isHTMLSpace(rune(t[len(t)-1]))
}

func (w *htmlText) word(s string) {
	if s == "" {
		return
	}
	if w.line.Len() == 0 {
		w.lineQ = w.quote
	}
	w.line.WriteString(s)
}

func isHTMLSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f'
}

// newline ends the current line (a br: an empty line is kept).
func (w *htmlText) newline() {
	line := w.line.String()
	if w.pre == 0 {
		line = strings.TrimRight(line, " ")
	}
	q := w.lineQ
	if line == "" {
		q = w.quote
	}
	w.line.Reset()
	w.space = false
	if line == "" {
		if !w.started {
			return
		}
		w.blanks++
		if w.blanks > 1 {
			return
		}
	} else {
		w.blanks = 0
		w.started = true
	}
	w.b.WriteString(strings.Repeat("> ", q))
	w.b.WriteString(line)
	w.b.WriteByte('\n')
}

// block ends the current line if it has text (block elements never make empty lines of their own
// beyond one).
func (w *htmlText) block() {
	if w.line.Len() > 0 {
		w.newline()
	}
	w.space = false
}

func (w *htmlText) String() string {
	w.block()
	out := strings.TrimRight(w.b.String(), "\n")
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	out = strings.Join(lines, "\n")
	if out == "" {
		return ""
	}
	return out + "\n"
}
