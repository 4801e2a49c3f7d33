package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/rallyjudge/rallyjudge/judge"
)

// version is set by the release build (make release: -ldflags "-X main.version=v1.2.3");
// a plain go build or go install leaves it empty and the build information says what
// was built.
var version string

// cmdVersion prints what this binary is: its version, the commit it was built from and
// the Go that built it.
func cmdVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: rallyjudge version")
		return 2
	}
	fmt.Fprintln(stdout, versionText())
	return 0
}

func versionText() string {
	v, rev, dirty, goVer := version, "", false, ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVer = bi.GoVersion
		if v == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version // go install MODULE@VERSION
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if v == "" {
		v = "devel"
	}
	out := fmt.Sprintf("rallyjudge %s (%s)", v, judge.Version)
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		out += " commit " + rev
		if dirty {
			out += "+changes"
		}
	}
	if goVer != "" {
		out += ", built with " + goVer
	}
	return out
}
