package judge

import (
	"bytes"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emersion/go-message"
)

// TestWriteReportPreview writes a real turn report's HTML part, its cid: pictures
// turned into data: URLs, to $RALLYJUDGE_REPORT_PREVIEW/report.html, for looking at the
// report in a browser as a player would (docs/pictures.md: screenshots at phone and
// desktop width). Skipped without the variable.
func TestWriteReportPreview(t *testing.T) {
	dir := os.Getenv("RALLYJUDGE_REPORT_PREVIEW")
	if dir == "" {
		t.Skip("set RALLYJUDGE_REPORT_PREVIEW=DIR to write a report preview")
	}
	f := newFixture(t)
	f.allSheets()
	reps := f.mailsTo("hulk@example.test", "report")
	if len(reps) == 0 {
		t.Fatal("no report")
	}
	html, parts := htmlAndParts(t, reps[0].Raw)
	for cid, p := range parts {
		html = strings.ReplaceAll(html, "cid:"+cid, "data:"+p.ct+";base64,"+base64.StdEncoding.EncodeToString(p.data))
	}
	if err := os.WriteFile(filepath.Join(dir, "report.html"), []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
}

type part struct {
	ct   string
	data []byte
}

func htmlAndParts(t *testing.T, raw []byte) (string, map[string]part) {
	t.Helper()
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var html string
	parts := map[string]part{}
	var walk func(e *message.Entity)
	walk = func(e *message.Entity) {
		if mr := e.MultipartReader(); mr != nil {
			for {
				p, err := mr.NextPart()
				if err == io.EOF {
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				walk(p)
			}
		}
		ct, _, _ := e.Header.ContentType()
		b, _ := io.ReadAll(e.Body)
		if ct == "text/html" {
			html = string(b)
		} else if id := strings.Trim(e.Header.Get("Content-Id"), "<>"); id != "" {
			parts[id] = part{ct, b}
		}
	}
	walk(e)
	return html, parts
}
