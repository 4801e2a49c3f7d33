package orders

import "testing"

// An option card written with accents or in capitals is the card (issue 22: names are
// compared case- and accent-insensitively; "Brakés" was "not an option card").
func TestOptionNamesWithAccents(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"use Brakés", "Brakes"},
		{"use GYROSCOPIC STABILISÄTOR", "Gyroscopic Stabilisator"},
		{"use Brakes", "Brakes"},
	} {
		s, err := Parse([]byte("robot Twonky\n" + tc.line + "\n"))
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		if len(s.Rules) != 1 || s.Rules[0].Then.Option != tc.want {
			t.Errorf("%q: read as %+v, want a use of %s", tc.line, s.Rules, tc.want)
		}
	}
}
