package judge

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gomail "github.com/emersion/go-message/mail"

	"github.com/rallyjudge/rallyjudge/internal/pagefit"
)

// A turn report's HTML part fits a phone (390 px) and a desktop (1280 px) with its
// pictures in place: nothing scrolls sideways (issue 22: the Robots table was cut off
// after "Flags" and the text map scrolled sideways on a phone).
// RALLYJUDGE_KEEP_SCREENSHOT=DIR keeps a screenshot at each width to look at.
func TestReportFitsPhoneAndDesktop(t *testing.T) {
	if pagefit.Chromium() == "" {
		t.Skip("no chromium: apt-get install -y chromium (.ci/run installs it)")
	}
	f := newFixture(t)
	f.allSheets()
	reps := f.mailsTo("hulk@example.test", "report")
	if len(reps) != 1 {
		t.Fatalf("%d reports", len(reps))
	}
	page := reportPage(t, reps[0].Raw)
	for _, w := range []int{390, 1280} {
		shot := ""
		if dir := os.Getenv("RALLYJUDGE_KEEP_SCREENSHOT"); dir != "" {
			shot = filepath.Join(dir, fmt.Sprintf("report-%d.png", w))
		}
		r, err := pagefit.Measure(context.Background(), t.TempDir(), page, w, shot, 0, 1800)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Fits() {
			t.Errorf("the report scrolls sideways %s", r)
		}
	}
}

// The welcome mail fits a phone and a desktop too: its text map and legend, and the
// sheet to fill in (they scrolled sideways in boxes of their own).
func TestWelcomeFitsPhoneAndDesktop(t *testing.T) {
	if pagefit.Chromium() == "" {
		t.Skip("no chromium: apt-get install -y chromium (.ci/run installs it)")
	}
	f := newFixture(t)
	ws := f.mailsTo("hulk@example.test", "welcome")
	if len(ws) != 1 {
		t.Fatalf("%d welcomes", len(ws))
	}
	page := mailPage(t, ws[0].Raw, false)
	for _, w := range []int{390, 1280} {
		r, err := pagefit.Measure(context.Background(), t.TempDir(), page, w, "", 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Fits() {
			t.Errorf("the welcome scrolls sideways %s", r)
		}
	}
}

// reportPage is a report's HTML part with its inline pictures put in as data: URLs, as a
// mail program shows it.
func reportPage(t *testing.T, raw []byte) []byte {
	t.Helper()
	return mailPage(t, raw, true)
}

// mailPage is a mail's HTML part with its inline pictures (wantPics: it must have some)
// put in as data: URLs.
func mailPage(t *testing.T, raw []byte, wantPics bool) []byte {
	t.Helper()
	mr, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var html string
	pics := map[string]string{}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p.Body)
		ct := p.Header.Get("Content-Type")
		switch {
		case strings.HasPrefix(ct, "text/html"):
			html = string(b)
		case strings.HasPrefix(ct, "image/"):
			mt, _, _ := strings.Cut(ct, ";")
			pics[strings.Trim(p.Header.Get("Content-Id"), "<>")] = "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(b)
		}
	}
	if html == "" || wantPics && len(pics) == 0 {
		t.Fatalf("the mail has no HTML part or no pictures (%d)", len(pics))
	}
	for cid, uri := range pics {
		html = strings.ReplaceAll(html, "cid:"+cid, uri)
	}
	return []byte(html)
}

// Each player's report rings their own robot (issue 22) in every picture of the turn:
// the board after the turn, each register's picture and the animation differ between
// two players' reports (they were shared, unringed, but for the board).
func TestReportRingsYourRobot(t *testing.T) {
	f := newFixture(t)
	f.allSheets()
	parts := func(addr string) map[string][]byte {
		reps := f.mailsTo(addr, "report")
		if len(reps) != 1 {
			t.Fatalf("%s: %d reports", addr, len(reps))
		}
		mr, err := gomail.CreateReader(bytes.NewReader(reps[0].Raw))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]byte{}
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(p.Body)
			if id := p.Header.Get("Content-Id"); id != "" {
				out[strings.Trim(id, "<>")[:strings.Index(strings.Trim(id, "<>"), ".")]] = b
			}
		}
		return out
	}
	hulk, zoom := parts("hulk@example.test"), parts("zoombot@example.test")
	if len(hulk["board"]) == 0 || bytes.Equal(hulk["board"], zoom["board"]) {
		t.Errorf("Hulk's and Zoombot's boards are the same picture (%d bytes): no robot ringed", len(hulk["board"]))
	}
	for _, what := range []string{"turn", "reg1", "reg2", "reg3", "reg4", "reg5"} {
		if len(hulk[what]) == 0 || bytes.Equal(hulk[what], zoom[what]) {
			t.Errorf("%s: Hulk's and Zoombot's pictures are the same (%d bytes) or missing: no robot ringed", what, len(hulk[what]))
		}
	}
}

// RoboRally behind the seam (game.Mailer) mails the same report, which fits a phone and a
// desktop as well, its pictures (drawn after the commit) in place.
// RALLYJUDGE_KEEP_SCREENSHOT=DIR keeps a screenshot at each width to look at.
func TestSeamReportFitsPhoneAndDesktop(t *testing.T) {
	if pagefit.Chromium() == "" {
		t.Skip("no chromium: apt-get install -y chromium (.ci/run installs it)")
	}
	f := newSeamFixture(t, GameSpec{})
	f.seamTurn()
	reps := f.mailsTo("hulk@example.test", "report")
	if len(reps) != 1 {
		t.Fatalf("%d reports", len(reps))
	}
	page := reportPage(t, reps[0].Raw)
	for _, w := range []int{390, 1280} {
		shot := ""
		if dir := os.Getenv("RALLYJUDGE_KEEP_SCREENSHOT"); dir != "" {
			shot = filepath.Join(dir, fmt.Sprintf("seam-report-%d.png", w))
		}
		r, err := pagefit.Measure(context.Background(), t.TempDir(), page, w, shot, 0, 1800)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Fits() {
			t.Errorf("the report scrolls sideways %s", r)
		}
	}
}
