package main

import (
	"fmt"
	"io"
)

func cmdDemo(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "rallyjudge demo: not built yet")
	return 2
}
