package templates

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"
	"unicode/utf8"
)

//go:embed files/*.tmpl
var embedded embed.FS

// Set is a loaded set of templates: the embedded ones, each replaced by a file of the
// same name in the game master's override directory when there is one. Files ending in
// .txt.tmpl are text/template, files ending in .html.tmpl are html/template (every value
// escaped for HTML by context).
type Set struct {
	text *template.Template
	html *htmltemplate.Template
}

// funcs are the helpers every template may call.
func funcs() map[string]any {
	return map[string]any{
		// lines are the lines of s, without the empty one after a last newline.
		"lines": func(s string) []string {
			return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
		},
		"pad": func(n int, s string) string {
			if len(s) >= n {
				return s
			}
			return s + strings.Repeat(" ", n-len(s))
		},
	}
}

// htmlFuncs are the helpers of the HTML templates.
func htmlFuncs() map[string]any {
	return map[string]any{
		// cid is the URL of an inline part of the same mail (RFC 2392). html/template
		// refuses URL schemes it does not know, so the reference is built here, from a
		// Content-ID of safe characters only.
		"cid": func(id string) (htmltemplate.URL, error) {
			for _, r := range id {
				if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-_@+", r)) {
					return "", fmt.Errorf("content-id %q: only letters, digits and .-_@+", id)
				}
			}
			return htmltemplate.URL("cid:" + id), nil
		},
		// bigPicture sizes a picture of w pixels to fill the page's width, up to twice
		// its size, drawn crisp: small on a phone, large on a desktop (issue 22).
		"bigPicture": func(w int) htmltemplate.CSS {
			if w <= 0 {
				return "max-width: 100%; height: auto;"
			}
			return htmltemplate.CSS(fmt.Sprintf("width: 100%%; max-width: %dpx; height: auto; image-rendering: pixelated;", 2*w))
		},
		// mapFont is the text map's font size: 13px, or smaller to fit a narrow screen
		// without scrolling sideways (issue 22: a phone is 390 px wide). A monospace
		// character is about 0.6 em wide; the page's and the block's padding are 48 px.
		"mapFont": func(text string) htmltemplate.CSS {
			n := 1
			for _, l := range strings.Split(text, "\n") {
				n = max(n, utf8.RuneCountInString(l))
			}
			return htmltemplate.CSS(fmt.Sprintf("font-size: 13px; font-size: min(13px, calc((100vw - 48px) / %.1f));", float64(n)*0.62))
		},
	}
}

// Load reads the embedded templates and, when dir is not "", the overrides in dir.
func Load(dir string) (*Set, error) {
	t := template.New("").Option("missingkey=error").Funcs(funcs())
	h := htmltemplate.New("").Option("missingkey=error").Funcs(funcs()).Funcs(htmlFuncs())
	names, err := fs.Glob(embedded, "files/*.tmpl")
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		b, err := embedded.ReadFile(n)
		if err != nil {
			return nil, err
		}
		base := filepath.Base(n)
		if dir != "" {
			if ob, err := os.ReadFile(filepath.Join(dir, base)); err == nil {
				b = ob
			} else if !os.IsNotExist(err) {
				return nil, fmt.Errorf("templates: override %s: %w", base, err)
			}
		}
		if strings.HasSuffix(base, ".html.tmpl") {
			_, err = h.New(base).Parse(string(b))
		} else {
			_, err = t.New(base).Parse(string(b))
		}
		if err != nil {
			return nil, fmt.Errorf("templates: %s: %w", base, err)
		}
	}
	set := &Set{text: t, html: h}
	if dir != "" {
		if err := set.checkOverrides(dir, names); err != nil {
			return nil, err
		}
	}
	return set, nil
}

// checkOverrides refuses what a game master's directory gets wrong at start, not at the
// first turn: a .tmpl file that overrides nothing (a misspelt name), and a template that
// fails on sample data (a misspelt field).
func (s *Set) checkOverrides(dir string, names []string) error {
	known := map[string]bool{}
	for _, n := range names {
		known[filepath.Base(n)] = true
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.tmpl"))
	if err != nil {
		return err
	}
	for _, f := range files {
		if !known[filepath.Base(f)] {
			var list []string
			for n := range known {
				list = append(list, n)
			}
			sort.Strings(list)
			return fmt.Errorf("templates: %s overrides no template (the templates are %s)", f, strings.Join(list, ", "))
		}
	}
	card := []Card{{Register: 1, P: 490, Title: "Move 1"}}
	sections := []Section{{Register: 1, Title: "Register 1", Lines: []string{"P490 Zoom plays Move 1"}}}
	robots := []RobotStatus{{Name: "Zoom", Square: "1,2", Facing: "north", Power: "on"}}
	report := Report{Game: "g", Course: "c", Turn: 1, NextTurn: 2, Part: PartFull, Player: "Zoom", Board: "b", Legend: "l",
		Sections: sections, Robots: robots, Deadline: "d", Standings: []Standing{{}}, Hand: card, Locked: card,
		Standing: []string{"if damage > 4 then power down"}, Sheet: "#orders\n#end\n", Pictures: &Pictures{BoardCID: "b", TurnCID: "t", Stills: []Still{{CID: "s1", Caption: "After register 1"}}}, Replay: "r"}
	samples := map[string]any{
		"report.txt.tmpl":   report,
		"report.html.tmpl":  report,
		"ack.txt.tmpl":      Ack{Game: "g", Robot: "Zoom", Turn: 1, Program: card, Standing: []string{"x"}, Warnings: []string{"w"}, Forecast: "f", Deadline: "d", Waiting: "w"},
		"rejected.txt.tmpl": Rejected{Summary: "s", Errors: []string{"e"}, Hint: "h"},
		"notice.txt.tmpl":   Notice{Kind: "reminder", Game: "g", Subject: "s", Text: "t", Judge: "j"},
		"welcome.txt.tmpl":  Welcome{Game: "g", Course: "c", Robot: "Zoom", Secret: "(secret)", Board: "b", Legend: "l", Hand: card, Locked: card, Deadline: "d", Sheet: "s", Judge: "j", Turn: 1},
		"game.html.tmpl":    GameMail{Title: "t", Intro: []string{"i"}, Text: "x", PictureCID: "p", PictureAlt: "a", Foot: "f"},
		"welcome.html.tmpl": Welcome{Game: "g", Course: "c", Robot: "Zoom", Secret: "(secret)", Board: "b", Legend: "l", Hand: card, Locked: card, Deadline: "d", Sheet: "s", Judge: "j", Turn: 1},
	}
	for name, data := range samples {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			continue // not overridden: the embedded template is tested
		}
		var err error
		if strings.HasSuffix(name, ".html.tmpl") {
			_, err = s.HTML(name, data)
		} else {
			_, err = s.Text(name, data)
		}
		if err != nil {
			return fmt.Errorf("templates: override %s fails on sample data: %w", name, err)
		}
	}
	return nil
}

// Text renders the named text template ("report.txt.tmpl") with data.
func (s *Set) Text(name string, data any) (string, error) {
	var b bytes.Buffer
	if err := s.text.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("templates: %s: %w", name, err)
	}
	return b.String(), nil
}

// HTML renders the named HTML template ("report.html.tmpl") with data.
func (s *Set) HTML(name string, data any) (string, error) {
	var b bytes.Buffer
	if err := s.html.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("templates: %s: %w", name, err)
	}
	return b.String(), nil
}

// HasHTML reports whether the set has the named HTML template.
func (s *Set) HasHTML(name string) bool { return s.html.Lookup(name) != nil }
