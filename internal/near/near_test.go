package near

import (
	"reflect"
	"testing"
)

func TestFold(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Zoë", "zoe"}, {"ZOE", "zoe"}, {"Zäpper", "zapper"}, {"Straße", "strasse"}, {"Ørsted", "orsted"}, {"crash-2", "crash-2"},
	} {
		if got := Fold(c.in); got != c.want {
			t.Errorf("Fold(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		name  string
		cands []string
		want  string
		ok    bool
	}{
		{"Zoë", []string{"Hulk", "Zoe"}, "Zoe", true},
		{"zoe", []string{"Zoë"}, "Zoë", true},
		{"Zoë", []string{"Zoe", "Zoë"}, "Zoë", true}, // exact first
		{"zoe", []string{"Zoe", "Zoë"}, "", false},   // two folded twins: neither
		{"Zapper", []string{"Hulk"}, "", false},
	} {
		got, ok := Match(c.name, c.cands)
		if got != c.want || ok != c.ok {
			t.Errorf("Match(%q, %q) = %q, %v; want %q, %v", c.name, c.cands, got, ok, c.want, c.ok)
		}
	}
}

func TestMatchesAndHint(t *testing.T) {
	games := []string{"crash", "spring-open", "autumn", "crush"}
	if got, want := Matches("crsh", games), []string{"crash", "crush"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Matches(crsh) = %q, want %q", got, want)
	}
	for _, c := range []struct {
		name  string
		cands []string
		want  string
	}{
		{"crsh", games, "did you mean crash or crush?"},
		{"spring", games, "did you mean spring-open?"},
		{"winter", games, "the games here: autumn, crash, crush, spring-open"},
		{"Zäpper", []string{"Zapper", "Hulk"}, "did you mean Zapper?"},
		{"x", nil, ""},
	} {
		if got := Hint(c.name, c.cands, "games here"); got != c.want {
			t.Errorf("Hint(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestSentence(t *testing.T) {
	for in, want := range map[string]string{"": "", "did you mean crash?": " Did you mean crash?", "the robots are: Hulk": " The robots are: Hulk."} {
		if got := Sentence(in); got != want {
			t.Errorf("Sentence(%q) = %q, want %q", in, got, want)
		}
	}
}
