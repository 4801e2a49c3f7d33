package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fenced is the text of every fenced block of a guide, in order, with its info string.
func fenced(t *testing.T, doc string) (infos, blocks []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", doc))
	if err != nil {
		t.Fatal(err)
	}
	in := false
	var cur strings.Builder
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case !in && strings.HasPrefix(strings.TrimSpace(l), "```"):
			in = true
			infos = append(infos, strings.TrimPrefix(strings.TrimSpace(l), "```"))
			cur.Reset()
		case in && strings.TrimSpace(l) == "```":
			in = false
			blocks = append(blocks, cur.String())
		case in:
			cur.WriteString(l + "\n")
		}
	}
	return infos, blocks
}

// TestOrdersGuideForecast runs docs/orders.md's check as the page says: its first
// block (the postal sample sheet) against its saved turn (the json block), and finds
// the forecast the page shows in the output.
func TestOrdersGuideForecast(t *testing.T) {
	infos, blocks := fenced(t, "orders.md")
	var sheet, state, forecast string
	for i, b := range blocks {
		switch {
		case sheet == "" && infos[i] == "":
			sheet = b
		case infos[i] == "json" && strings.Contains(b, `"state"`):
			state = b
		case strings.HasPrefix(b, "Forecast for Fred"):
			forecast = b
		}
	}
	if sheet == "" || state == "" || forecast == "" {
		t.Fatalf("docs/orders.md: sample sheet %v, saved turn %v, forecast %v", sheet != "", state != "", forecast != "")
	}
	dir := t.TempDir()
	sp, tp := filepath.Join(dir, "sample.txt"), filepath.Join(dir, "turn.json")
	if err := os.WriteFile(sp, []byte(sheet), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tp, []byte(state), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"check", sp, "--state", tp}, &out, &errb); code != 0 {
		t.Fatalf("rallyjudge check sample.txt --state turn.json: exit %d\n%s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), forecast) {
		t.Errorf("the forecast differs from docs/orders.md's:\n%s\nwant:\n%s", out.String(), forecast)
	}
}
