package judge

import (
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/store"
	"github.com/rallyjudge/rallyjudge/templates"
)

// The judge's templates (Judge.Templates: its own, a game master's overrides over
// them) and the games' own (game.Templater): a game's are rendered through the judge's
// set, layered under the same overrides, so that templates_dir reaches a RoboRally
// report as it reaches a rejection.

// TemplateSources are the templates of the games of c that have their own, for
// templates.Load: an override of one of them is checked at start as the judge's are.
func TemplateSources(c game.Catalog) []templates.Source {
	var out []templates.Source
	for _, k := range c {
		if t, ok := k.(game.Templater); ok {
			files, samples := t.Templates()
			out = append(out, templates.Source{Name: k.Name(), FS: files, Samples: samples})
		}
	}
	return out
}

// LoadTemplates is the judge's templates with the games' of c, each replaced by its
// override in dir ("": none).
func LoadTemplates(dir string, c game.Catalog) (*templates.Set, error) {
	return templates.Load(dir, TemplateSources(c)...)
}

// templatesFor is what renders the mails of game g: the judge's templates with the
// game's own; nil when the judge has none (the game renders its own built in).
func (j *Judge) templatesFor(g store.Game) game.Renderer {
	if j.Templates == nil {
		return nil
	}
	k, err := j.hostedKind(g)
	if err != nil || k == nil {
		return j.Templates
	}
	return j.withGame(k)
}

// withGame is the judge's templates with kind k's own, if it has them. A game's
// templates that cannot be layered (an override broken for them) render the error,
// as a broken template does: the game falls back to its plain words.
func (j *Judge) withGame(k game.Kind) game.Renderer {
	src := TemplateSources(game.Catalog{k})
	if len(src) == 0 {
		return j.Templates
	}
	set, err := j.Templates.With(src[0])
	if err != nil {
		return brokenTemplates{err}
	}
	return set
}

// brokenTemplates is a Renderer whose every template fails with err.
type brokenTemplates struct{ err error }

func (b brokenTemplates) Text(string, any) (string, error) { return "", b.err }
func (b brokenTemplates) HTML(string, any) (string, error) { return "", b.err }
