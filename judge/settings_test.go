package judge

import (
	"strings"
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

// TestTypographicQuotesInSettings: a CREATE typed in Outlook's editor or on a phone had
// its name="Autumn Cup" turned into name=“Autumn Cup”, and was refused ("\"Cup”\": want
// key=value"). A value may be quoted with the typographic quotes too.
func TestTypographicQuotesInSettings(t *testing.T) {
	tests := []struct {
		in   string
		want string // the name read, or the refusal
	}{
		{`course=sprint name="Autumn Cup" players=4`, "Autumn Cup"},
		{"course=sprint name=“Autumn Cup” players=4", "Autumn Cup"},
		{"course=sprint name=„Herbst Pokal“ players=4", "Herbst Pokal"},
		{"course=sprint name=„Herbst Pokal” players=4", "Herbst Pokal"},
		{"course=sprint name=«Coupe d’automne» players=4", "Coupe d’automne"},
		{"course=sprint name=‘Autumn Cup’ players=4", "Autumn Cup"},
		{"course=sprint name=”Höst Cup” players=4", "Höst Cup"},
		{"course=sprint name=Autumn players=4", "Autumn"},
		{"course=sprint name=“Autumn Cup players=4", "refused: name: the quote is not closed."},
		{`course=sprint name="Autumn Cup players=4`, "refused: name: the quote is not closed."},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			kv, err := parseKV(strings.Fields(tt.in))
			got := kv["name"]
			if err != nil {
				got = "refused: " + err.Error()
			}
			if got != tt.want {
				t.Errorf("name %q, want %q", got, tt.want)
			}
			if err == nil && (kv["course"] != "sprint" || kv["players"] != "4") {
				t.Errorf("the other settings: %v", kv)
			}
		})
	}
	for in, want := range map[string]string{`"Autumn Cup"`: "Autumn Cup", "“Autumn Cup”": "Autumn Cup", `"Autumn`: "Autumn",
		"«Cup»": "Cup", "Autumn": "Autumn", "“": "“"} {
		if got := settingValue(in); got != want {
			t.Errorf("SET value %q read as %q, want %q", in, got, want)
		}
	}
}
