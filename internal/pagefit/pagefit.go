// Package pagefit checks in headless Chromium that a page fits a screen's width: that a
// reader on a 390-pixel phone or a 1280-pixel desktop never scrolls sideways, neither the
// page nor any block in it (a table or a text map in an overflow box). It is for tests;
// it runs Chromium and nothing else, and never touches the network (the page is a file,
// and Chromium is started with networking switched off).
package pagefit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Chromium is the browser's path, or "" when none is installed (apt-get install -y
// chromium; .ci/run installs it).
func Chromium() string {
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// Result is how a page laid out at one width.
type Result struct {
	Width      int      // the viewport's width
	PageWidth  int      // the page's scroll width: more than Width scrolls sideways
	Overflows  []string // blocks that scroll sideways inside, cut off, or past the edge: "PRE(585>374) Legend (nor…"
	Screenshot string   // the screenshot's path, when one was asked for
}

// Fits reports whether nothing scrolls sideways, is cut off at the side, or lies past
// the viewport's edge.
func (r Result) Fits() bool { return r.PageWidth <= r.Width && len(r.Overflows) == 0 }

func (r Result) String() string {
	return fmt.Sprintf("at %d px: page %d px wide, blocks scrolling sideways: %s", r.Width, r.PageWidth, strings.Join(r.Overflows, "; "))
}

// The page is shown in a frame of the width wanted (headless Chromium will not make its
// window narrower than 500 pixels), and measured from outside it once it has loaded.
const frame = `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">
<div style="width:%[1]dpx;height:%[2]dpx;overflow:hidden"><iframe id="f" src="page.html" style="border:0;width:%[1]dpx;height:%[3]dpx;margin-top:-%[4]dpx"></iframe></div>
<script>
document.getElementById("f").onload = function () {
  var d = this.contentDocument, bad = [], w = this.contentWindow.innerWidth;
  d.querySelectorAll("*").forEach(function (e) {
    var s = getComputedStyle(e), r = e.getBoundingClientRect(), what = (e.textContent || e.getAttribute("alt") || "").trim().slice(0, 30);
    if (e.scrollWidth > e.clientWidth + 1 && (s.overflowX == "auto" || s.overflowX == "scroll"))
      bad.push(e.tagName + "(" + e.scrollWidth + ">" + e.clientWidth + ") " + what);
    else if (e.scrollWidth > e.clientWidth + 1 && s.overflowX == "hidden" && e.tagName != "HTML" && e.tagName != "BODY")
      bad.push(e.tagName + "(cut " + e.scrollWidth + ">" + e.clientWidth + ") " + what);
    else if (r.width > 0 && r.height > 0 && s.visibility != "hidden" && (r.right > w + 1 || r.left < -1))
      bad.push(e.tagName + "(past the edge " + Math.round(r.left) + ".." + Math.round(r.right) + " of " + w + ") " + what);
  });
  document.title = "W=" + d.documentElement.scrollWidth + " BAD=" + bad.join(" | ");
};
</script></body></html>`

var titleRE = regexp.MustCompile(`<title>W=(\d+) BAD=([^<]*)</title>`)

// Measure lays page out at width pixels in dir (a test's temporary directory). With
// shot set it also writes a screenshot of the first height pixels from top there.
func Measure(ctx context.Context, dir string, page []byte, width int, shot string, top, height int) (Result, error) {
	bin := Chromium()
	if bin == "" {
		return Result{}, fmt.Errorf("pagefit: no chromium")
	}
	if err := os.WriteFile(filepath.Join(dir, "page.html"), page, 0o600); err != nil {
		return Result{}, err
	}
	if height <= 0 {
		height = 900
	}
	outer := filepath.Join(dir, fmt.Sprintf("frame-%d.html", width))
	if err := os.WriteFile(outer, []byte(fmt.Sprintf(frame, width, height, 20000, top)), 0o600); err != nil {
		return Result{}, err
	}
	run := func(args ...string) ([]byte, error) {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
			"--allow-file-access-from-files", "--hide-scrollbars", "--user-data-dir=" + filepath.Join(dir, "profile"),
			fmt.Sprintf("--window-size=%d,%d", width, height), "--virtual-time-budget=3000"}
		cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("pagefit: chromium: %v: %s", err, stderr.String())
		}
		return out, nil
	}
	dom, err := run("--dump-dom", "file://"+outer)
	if err != nil {
		return Result{}, err
	}
	m := titleRE.FindSubmatch(dom)
	if m == nil {
		return Result{}, fmt.Errorf("pagefit: the page was not measured (no title in the frame's DOM)")
	}
	r := Result{Width: width}
	r.PageWidth, _ = strconv.Atoi(string(m[1]))
	for _, b := range strings.Split(string(m[2]), " | ") {
		if b = strings.TrimSpace(b); b != "" {
			r.Overflows = append(r.Overflows, strings.ReplaceAll(b, "&gt;", ">"))
		}
	}
	if shot != "" {
		if _, err := run("--screenshot="+shot, "file://"+outer); err != nil {
			return r, err
		}
		r.Screenshot = shot
	}
	return r, nil
}
