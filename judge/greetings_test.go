package judge

import (
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/orders"
)

// TestSheetWithGreetings: a sheet mailed with a greeting above (orders/greetings.go)
// and the sender's sign-off below (signoff.go) is accepted; one with a line of prose is refused with the hint that says how to mark the
// orders (orders.MarkerHint).
func TestSheetWithGreetings(t *testing.T) {
	f := newFixture(t)
	kind, text := f.send("twonky@example.test", "[RR spring] orders", "Hi judge,\n\n"+f.sheet("Twonky", "")+"\nThanks,\nTwonky\n")
	if kind != "ack" {
		t.Fatalf("a sheet between a greeting and a sign-off: %s\n%s", kind, text)
	}
	kind, text = f.send("twonky@example.test", "[RR spring] orders", "Hi judge,\nhere are my orders for this turn.\n"+f.sheet("Twonky", "")+"\nThanks!\n")
	if kind == "ack" {
		t.Fatalf("a sheet with a line of prose was accepted:\n%s", text)
	}
	mustContain(t, "the refusal", text, `got "here"`, `"#orders"`, `"#end"`, "Correct")
	if !strings.Contains(text, strings.Split(orders.MarkerHint, "\n")[0]) {
		t.Errorf("the refusal lacks the marker hint:\n%s", text)
	}
}
