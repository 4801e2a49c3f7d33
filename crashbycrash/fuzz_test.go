package crashbycrash

import "testing"

// FuzzDecode: a saved state from outside either is refused by Decode or can be played
// from without a panic.
func FuzzDecode(f *testing.F) {
	s, _ := NewGame(Settings{Players: 2}, 1)
	b, _ := s.Encode()
	f.Add(b)
	mid := midGame(f, 2, 8)
	b, _ = mid.Encode()
	f.Add(b)
	f.Add([]byte(`{"players":2}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Decode(b)
		if err != nil {
			return
		}
		BoardText(s)
		acts := s.LegalActions()
		if len(acts) > 0 && s.Phase == PhasePlay {
			if _, err := s.LegalSeconds(acts[0]); err != nil {
				t.Fatalf("a legal first action refused: %v", err)
			}
		}
	})
}

// FuzzRunScenario: no scenario text makes the runner panic.
func FuzzRunScenario(f *testing.F) {
	f.Add("rule: seed 002, x\na: E5\nmove:\n  place E4\n  operator A12 A11\nexpect:\n  a E4\n")
	f.Add("rule: seed 002, x\nphase: setup\nplayers: 4\nhand 2: Tandem\nmove:\n  place E5\nexpect:\n  a E5\n")
	f.Add("rule: seed 002\nevents: 6\nbells: E8 E3\noperator: hole E4\nholes: E4\nmove:\nexpect:\n  over\n")
	f.Fuzz(func(t *testing.T, s string) {
		RunScenario(s)
	})
}
