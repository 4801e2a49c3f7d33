package judge

import (
	"testing"

	"github.com/rallyjudge/rallyjudge/store"
)

// A robot is found as a person writes it: "robot Zoë" is Zoe, "ZAPPER" is Zapper; a
// name that is none is answered with the near ones (issue 22).
func TestPlayerByRobotFoldsCaseAndAccents(t *testing.T) {
	players := []store.Player{{ID: 1, Robot: "Zoe"}, {ID: 2, Robot: "Zapper"}, {ID: 3, Robot: "Hulk"}}
	for _, tc := range []struct {
		name string
		want int64
		hint string
	}{
		{"Zoë", 1, ""},
		{"ZAPPER", 2, ""},
		{"hulk", 3, ""},
		{"Zäpper", 2, ""},
		{"Zappa", 0, " Did you mean Zapper?"},
		{"Twonky", 0, " The robots are: Hulk, Zapper, Zoe."},
	} {
		p := playerByRobot(players, tc.name)
		var got int64
		if p != nil {
			got = p.ID
		}
		if got != tc.want {
			t.Errorf("playerByRobot(%q) = player %d, want %d", tc.name, got, tc.want)
		}
		if tc.want == 0 {
			if h := robotHint(players, tc.name); h != tc.hint {
				t.Errorf("robotHint(%q) = %q, want %q", tc.name, h, tc.hint)
			}
		}
	}
}
