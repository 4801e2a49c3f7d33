package mail

import "strings"

// DecodeFlowed undoes RFC 3676 format=flowed, the soft wrapping iPhone, Apple Mail,
// Thunderbird, Roundcube and K-9 apply to long lines, so a sheet line the player typed
// as one line is read as one line ("1: P490   # ..." wrapped at 72 columns must not
// become a card line and a stray line). text is LF-separated.
//
//   - RFC 3676 4.2: a line ending in a space is soft-broken: the next line of the
//     same quote depth continues it. The signature separator "-- " is never flowed.
//   - 4.5: a leading space on an unquoted line is stuffing and is removed (it lets a
//     line start with "From " or ">" or " ").
//   - 4.4/4.5: quoted lines keep their depth (">" runs); a flowed paragraph never
//     continues across a change of depth.
//   - 4.2 DelSp=yes: the space ending a soft-broken line was added by the client and
//     is deleted when the lines are joined (iPhone and older Apple Mail).
//
// A paragraph whose last line is soft-broken (the mail ends mid-paragraph) is ended
// there. Quoted lines come out as ">" per depth followed by a space and the text, the
// way a reply quotes them; unquoted text is left as written apart from the above.
func DecodeFlowed(text string, delSp bool) string {
	lines := strings.Split(text, "\n")
	trailing := len(lines) > 0 && lines[len(lines)-1] == ""
	if trailing {
		lines = lines[:len(lines)-1]
	}
	var out []string
	var cur strings.Builder
	curDepth, open := 0, false
	flush := func() {
		if open {
			line := strings.TrimSuffix(quotePrefix(curDepth)+cur.String(), "\r")
			if curDepth > 0 {
				line = strings.TrimRight(line, " ")
			}
			out = append(out, line)
			cur.Reset()
			open = false
		}
	}
	for _, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		depth := 0
		for depth < len(l) && l[depth] == '>' {
			depth++
		}
		body := l[depth:]
		if strings.HasPrefix(body, " ") {
			body = body[1:] // space-stuffing (4.5), and the space after quote marks (4.4)
		}
		if open && depth != curDepth {
			flush() // 4.5: a change of quote depth ends the paragraph
		}
		sig := body == "-- "
		soft := !sig && strings.HasSuffix(body, " ")
		if soft && delSp {
			body = body[:len(body)-1]
		}
		cur.WriteString(body)
		curDepth, open = depth, true
		if !soft {
			flush()
		}
	}
	flush()
	s := strings.Join(out, "\n")
	if trailing || s != "" {
		s += "\n"
	}
	return s
}

func quotePrefix(depth int) string {
	if depth == 0 {
		return ""
	}
	return strings.Repeat(">", depth) + " "
}

// isFlowed reports whether a text/plain part is format=flowed, and its DelSp.
func isFlowed(params map[string]string) (flowed, delSp bool) {
	return strings.EqualFold(strings.TrimSpace(params["format"]), "flowed"),
		strings.EqualFold(strings.TrimSpace(params["delsp"]), "yes")
}
