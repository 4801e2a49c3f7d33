package pagefit

import (
	"context"
	"testing"
)

// Measure fails a page wider than the viewport, whichever way it is too wide: the page
// scrolls, a block scrolls inside, a block cuts its content off (overflow hidden), or a
// picture lies past the edge of a page that does not scroll (the old check saw only the
// first two).
func TestMeasureFindsWhatDoesNotFit(t *testing.T) {
	if Chromium() == "" {
		t.Skip("no chromium: apt-get install -y chromium (.ci/run installs it)")
	}
	const img = `<div style="width:600px;height:20px;background:red">board</div>`
	for _, tc := range []struct {
		name string
		page string
		fits bool
	}{
		{"fits", `<p>short</p><img alt="board" style="max-width:100%" width="600" height="20" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">`, true},
		{"page scrolls", `<div style="width:700px">wide</div>`, false},
		{"block scrolls", `<pre style="overflow-x:auto">` + `a very long line that does not wrap a very long line that does not wrap a very long line</pre>`, false},
		{"cut off", `<div style="overflow:hidden">` + img + `</div>`, false},
		{"past the edge", `<body style="overflow-x:hidden">` + img + `</body>`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Measure(context.Background(), t.TempDir(), []byte("<!DOCTYPE html><html><head><meta name=viewport content=\"width=device-width\"></head>"+tc.page+"</html>"), 390, "", 0, 300)
			if err != nil {
				t.Fatal(err)
			}
			if r.Fits() != tc.fits {
				t.Errorf("fits %v, want %v: %s", r.Fits(), tc.fits, r)
			}
		})
	}
}
