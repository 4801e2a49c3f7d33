package main

import (
	"bytes"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	if err := os.WriteFile(state, []byte(`{"turn": 4, "robots": [{"name": "Zoom", "pos": {"x": 3, "y": 3}, "facing": "E", "lives": 3, "power": "on"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"robots": 7}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		out    string // file written, checked by its decoder
		stderr string
	}{
		{"course png", []string{"sprint", "-o", filepath.Join(dir, "s.png")}, 0, "s.png", ""},
		{"flags first", []string{"--cell", "20", "-o", filepath.Join(dir, "s20.png"), "stampede"}, 0, "s20.png", ""},
		{"state", []string{"sprint", "--state", state, "-o", filepath.Join(dir, "st.png")}, 0, "st.png", ""},
		{"demo gif", []string{"stampede", "--demo-turn", "-o", filepath.Join(dir, "t.gif")}, 0, "t.gif", ""},
		{"demo png", []string{"sprint", "--demo-turn", "--robots", "4", "-o", filepath.Join(dir, "t.png")}, 0, "t.png", ""},
		{"unknown course", []string{"nowhere"}, 2, "", "not a shipped board or course"},
		{"missing file", []string{filepath.Join(dir, "none.course")}, 1, "", "no such file"},
		{"bad state", []string{"sprint", "--state", bad}, 1, "", "bad.json"},
		{"no course", nil, 2, "", "usage"},
		{"two courses", []string{"sprint", "stampede"}, 2, "", "usage"},
		{"bad cell", []string{"sprint", "--cell", "2"}, 2, "", "usage"},
		{"bad flag", []string{"sprint", "--colour"}, 2, "", "flag provided but not defined"},
		{"too many robots", []string{"sprint", "--demo-turn", "--robots", "9"}, 2, "", "usage"},
		{"2023 demo gif", []string{"docking-run", "--demo-turn", "--turn", "2", "-o", filepath.Join(dir, "d.gif")}, 0, "d.gif", ""},
		{"2023 demo, more robots than starts", []string{"docking-run", "--demo-turn", "--robots", "7"}, 1, "", "has 6"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := cmdRender(tc.args, &stdout, &stderr)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q, want it to contain %q", stderr.String(), tc.stderr)
			}
			if tc.out == "" {
				return
			}
			f, err := os.Open(filepath.Join(dir, tc.out))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if strings.HasSuffix(tc.out, ".gif") {
				g, err := gif.DecodeAll(f)
				if err != nil {
					t.Fatal(err)
				}
				if len(g.Image) < 10 {
					t.Errorf("%d frames in a demo turn", len(g.Image))
				}
				return
			}
			if _, err := png.Decode(f); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestRenderStdout(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := cmdRender([]string{"sprint"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	img, err := png.Decode(&stdout)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 12*16 || b.Dy() < 16*16 {
		t.Errorf("picture of sprint is %v", b)
	}
}

// TestRenderArchiveTurn draws a game at a turn from its archive: a GIF of the turn with
// one frame per step, and the floor after it.
func TestRenderArchiveTurn(t *testing.T) {
	dir := t.TempDir()
	rja := filepath.Join("..", "..", "roborally", "rja", "testdata", "sprint-3.rja")
	for _, tc := range []struct {
		args []string
		code int
		gif  bool
	}{
		{[]string{"--archive", rja, "--turn", "2", "-o", filepath.Join(dir, "t2.gif")}, 0, true},
		{[]string{"--archive", rja, "--turn", "2", "-o", filepath.Join(dir, "t2.png")}, 0, false},
		{[]string{"--archive", rja, "--turn", "99", "-o", filepath.Join(dir, "x.png")}, 1, false},
		{[]string{"--archive", rja, "sprint"}, 2, false},
	} {
		var out, errb bytes.Buffer
		if code := cmdRender(tc.args, &out, &errb); code != tc.code {
			t.Fatalf("%v: exit %d, want %d: %s", tc.args, code, tc.code, errb.String())
		}
		if tc.code != 0 {
			continue
		}
		f, err := os.Open(tc.args[len(tc.args)-1])
		if err != nil {
			t.Fatal(err)
		}
		if tc.gif {
			g, err := gif.DecodeAll(f)
			if err != nil || len(g.Image) < 3 {
				t.Fatalf("%v: not an animated GIF (%v)", tc.args, err)
			}
		} else if _, err := png.Decode(f); err != nil {
			t.Fatalf("%v: not a PNG: %v", tc.args, err)
		}
		f.Close()
	}
}
