package templates

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"text/template"
)

//go:embed files/*.tmpl
var embedded embed.FS

// Set is a loaded set of templates: the embedded ones, each replaced by a file of the
// same name in the game master's override directory when there is one.
type Set struct {
	text *template.Template
}

// Load reads the embedded templates and, when dir is not "", the overrides in dir.
func Load(dir string) (*Set, error) {
	t := template.New("").Option("missingkey=error")
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
		if _, err := t.New(base).Parse(string(b)); err != nil {
			return nil, fmt.Errorf("templates: %s: %w", base, err)
		}
	}
	return &Set{text: t}, nil
}

// Text renders the named text template ("report.txt.tmpl") with data.
func (s *Set) Text(name string, data any) (string, error) {
	var b bytes.Buffer
	if err := s.text.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("templates: %s: %w", name, err)
	}
	return b.String(), nil
}
