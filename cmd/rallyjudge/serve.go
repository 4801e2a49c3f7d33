package main

import (
	"fmt"
	"io"
)

func cmdServe(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "rallyjudge serve: not built yet")
	return 2
}
