package templates

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"text/template"
	"unicode/utf8"
)

//go:embed files/*.tmpl
var embedded embed.FS

// Set is a loaded set of templates: the judge's own (embedded, files/*.tmpl) and the
// games' (Source), each replaced by a file of the same name in the game master's
// override directory when there is one. Files ending in .txt.tmpl are text/template,
// files ending in .html.tmpl are html/template (every value escaped for HTML by
// context). A Set is safe for concurrent use.
type Set struct {
	text *template.Template
	html *htmltemplate.Template
	dir  string
	// games are the games' templates the set holds; with, the sets With made, by
	// the game's name.
	games []Source
	mu    sync.Mutex
	with  map[string]*Set
}

// Source is a game's own templates (RoboRally: its turn report, welcome and
// acknowledgement), rendered through the judge's set so that a game master's overrides
// apply to them as to the judge's.
type Source struct {
	Name string // the game's name, for errors
	// FS holds the templates, *.tmpl at its root.
	FS fs.FS
	// Samples are data for each template, on which a game master's override of it is
	// tried when the set is loaded: a misspelt field fails at start, not at the first
	// turn. A template without a sample is only parsed.
	Samples map[string]any
}

// file is one template's text as loaded.
type file struct {
	name string // its file name: report.txt.tmpl
	text []byte
	over bool // read from the override directory
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
		// mapFont is the font size of a board drawn in text: 13px, or smaller to fit a
		// narrow screen without scrolling sideways (issue 22: a phone is 390 px wide). A
		// monospace character is about 0.6 em wide; the page's and the block's padding
		// are 48 px.
		"mapFont": func(text string) htmltemplate.CSS {
			n := 1
			for _, l := range strings.Split(text, "\n") {
				n = max(n, utf8.RuneCountInString(l))
			}
			return htmltemplate.CSS(fmt.Sprintf("font-size: 13px; font-size: min(13px, calc((100vw - 48px) / %.1f));", float64(n)*0.62))
		},
	}
}

// Load reads the judge's templates and the games', and, when dir is not "", the
// overrides in dir. A template that does not parse is an error naming its file; so is
// an override that fails on its template's sample data and, when games are given, a
// .tmpl file in dir that overrides none of the templates (a misspelt name). Without
// games, such a file is kept for the games' templates the set is later given (With).
func Load(dir string, games ...Source) (*Set, error) {
	s, err := load(dir, games)
	if err != nil {
		return nil, err
	}
	if dir != "" {
		if err := s.checkOverrides(len(games) > 0); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// With is the set with a game's templates too, under the same overrides; s itself when
// it holds them already. The set is made once a game and kept.
func (s *Set) With(game Source) (*Set, error) {
	for _, g := range s.games {
		if g.Name == game.Name {
			return s, nil
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if w, ok := s.with[game.Name]; ok {
		return w, nil
	}
	w, err := load(s.dir, append(slices.Clip(s.games), game))
	if err != nil {
		return nil, err
	}
	if s.with == nil {
		s.with = map[string]*Set{}
	}
	s.with[game.Name] = w
	return w, nil
}

// load parses the judge's templates and the games', each replaced by its override in
// dir.
func load(dir string, games []Source) (*Set, error) {
	files, err := readAll(embedded, "files", "the judge's")
	if err != nil {
		return nil, err
	}
	for _, g := range games {
		own, err := readAll(g.FS, ".", g.Name+"'s")
		if err != nil {
			return nil, err
		}
		for _, f := range own {
			if slices.ContainsFunc(files, func(o file) bool { return o.name == f.name }) {
				return nil, fmt.Errorf("templates: %s's %s: the name of another template", g.Name, f.name)
			}
		}
		files = append(files, own...)
	}
	t := template.New("").Option("missingkey=error").Funcs(funcs())
	h := htmltemplate.New("").Option("missingkey=error").Funcs(funcs()).Funcs(htmlFuncs())
	for i, f := range files {
		if dir != "" {
			if ob, err := os.ReadFile(filepath.Join(dir, f.name)); err == nil {
				files[i].text, files[i].over = ob, true
			} else if !os.IsNotExist(err) {
				return nil, fmt.Errorf("templates: override %s: %w", f.name, err)
			}
		}
		if strings.HasSuffix(f.name, ".html.tmpl") {
			_, err = h.New(f.name).Parse(string(files[i].text))
		} else {
			_, err = t.New(f.name).Parse(string(files[i].text))
		}
		if err != nil {
			return nil, fmt.Errorf("templates: %s: %w", f.name, err)
		}
	}
	return &Set{text: t, html: h, dir: dir, games: games}, nil
}

// readAll reads the *.tmpl files of fsys's directory dir; whose names errors.
func readAll(fsys fs.FS, dir, whose string) ([]file, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.tmpl"))
	if err != nil {
		return nil, fmt.Errorf("templates: %s templates: %w", whose, err)
	}
	var out []file
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, fmt.Errorf("templates: %s templates: %w", whose, err)
		}
		out = append(out, file{name: path.Base(n), text: b})
	}
	return out, nil
}

// checkOverrides refuses what a game master's directory gets wrong at start, not at the
// first turn: a template that fails on sample data (a misspelt field) and, when strict,
// a .tmpl file that overrides nothing (a misspelt name).
func (s *Set) checkOverrides(strict bool) error {
	samples := samples()
	known := map[string]bool{}
	for _, t := range s.text.Templates() {
		known[t.Name()] = true
	}
	for _, t := range s.html.Templates() {
		known[t.Name()] = true
	}
	delete(known, "")
	for _, g := range s.games {
		for n, d := range g.Samples {
			samples[n] = d
		}
	}
	files, err := filepath.Glob(filepath.Join(s.dir, "*.tmpl"))
	if err != nil {
		return err
	}
	for _, f := range files {
		if strict && !known[filepath.Base(f)] {
			list := slices.Sorted(maps.Keys(known))
			return fmt.Errorf("templates: %s overrides no template (the templates are %s)", f, strings.Join(list, ", "))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(samples)) {
		if _, err := os.Stat(filepath.Join(s.dir, name)); err != nil || !known[name] {
			continue // not overridden: the embedded template is tested
		}
		var err error
		if strings.HasSuffix(name, ".html.tmpl") {
			_, err = s.HTML(name, samples[name])
		} else {
			_, err = s.Text(name, samples[name])
		}
		if err != nil {
			return fmt.Errorf("templates: override %s fails on sample data: %w", name, err)
		}
	}
	return nil
}

// samples are data for the judge's own templates.
func samples() map[string]any {
	return map[string]any{
		"rejected.txt.tmpl": Rejected{Summary: "s", Errors: []string{"e"}, Hint: "h"},
		"notice.txt.tmpl":   Notice{Kind: "reminder", Game: "g", Subject: "s", Text: "t", Judge: "j"},
		"game.html.tmpl":    GameMail{Title: "t", Intro: []string{"i"}, Text: "x", PictureCID: "p", PictureAlt: "a", Foot: "f"},
	}
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
