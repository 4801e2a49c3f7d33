package orders

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// markerKind tells most lines from markers without copying them (markerStart, issue 24
// item 7): it reads every line as it did, kept here as it was.

// markerKindBefore is markerKind as it was.
func markerKindBefore(l string) int {
	t := strings.TrimSpace(l)
	if t == "" || t[0] >= utf8.RuneSelf || !markerFirsts[t[0]] {
		// Neither trimming below nor cutting a comment changes the first character
		// unless it is one of these, and every marker word starts with o, b, s, e or m.
		return 0
	}
	if strings.LastIndexByte(t, '#') > 0 {
		t = cutComment(t) // "#end   # that's all"
	}
	if len(t) > 40 {
		return 0
	}
	decorated := strings.TrimLeft(t, "-#=*[<_ ") != t
	t = strings.Trim(t, "-#=*[]<>_ :")
	if len(t) < 3 || !strings.ContainsAny(t[:1], "obsemOBSEM") {
		return 0 // cannot be one of the words below
	}
	t = strings.ToLower(strings.Join(strings.Fields(t), " "))
	switch t {
	case "orders", "begin orders", "start orders", "orders begin", "orders start", "start of orders", "my orders":
		if decorated {
			return 1
		}
	case "end", "end orders", "end of orders", "orders end", "stop":
		if decorated || t != "stop" {
			return 2
		}
	}
	return 0
}

var markerCases = []string{
	"#orders", "# orders", "--- orders ---", "=== begin orders ===", "[ORDERS]", "<<start of orders>>", "_my orders_",
	"#end", "--- end ---", "end of orders", "End Orders", "stop", "--stop--", "orders end", "orders\tstart", "ORDERS  BEGIN",
	"secret k7dm-3xqp-9wtr-hzv4", "Secret: x", "move 2", "Move 2 P670", "shutdown", "both", "ending", "endorders", "my",
	"begin", "start", "orders please", "ordersx", "#end   # that's all", "-- end # x", "#orders # yes", "#oRdErS",
	"--- ORDERS\u00a0---", "#ORDERS\u0085", "#orders\u200b", "#stop\u212a", "#end\u0130", "--- BEGİN ORDERS ---",
	"#\u212aorders", "---", "", "  ", "#", "o", "ob", "obs", "e n d", "=== orders", "orders ===", ">> end", ":end:",
	"*stop*", "stop it", "end.", "#end\r", "\t#orders\t", "-- ", "#orders\v", "#orders\fend",
}

func TestMarkerKindAsBefore(t *testing.T) {
	for _, a := range markerCases {
		for _, b := range append([]string{""}, markerCases...) {
			for _, l := range []string{a + b, a + " " + b, b + " " + a} {
				if got, want := markerKind(l), markerKindBefore(l); got != want {
					t.Errorf("markerKind(%q) = %d, was %d", l, got, want)
				}
			}
		}
	}
}

func FuzzMarkerKindAsBefore(f *testing.F) {
	for _, c := range markerCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if got, want := markerKind(l), markerKindBefore(l); got != want {
			t.Fatalf("markerKind(%q) = %d, was %d", l, got, want)
		}
	})
}
