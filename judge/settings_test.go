package judge

import (
	"testing"
	"time"
)

// Durations in mail read as a game master types them (2h), never as Go prints them (2h0m0s).
func TestShortDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{2 * time.Hour, "2h"}, {72 * time.Hour, "72h"}, {90 * time.Minute, "1h30m"},
		{45 * time.Minute, "45m"}, {90 * time.Second, "1m30s"}, {time.Hour + 5*time.Second, "1h0m5s"}, {0, "0s"},
	} {
		if got := shortDuration(tc.d); got != tc.want {
			t.Errorf("shortDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
