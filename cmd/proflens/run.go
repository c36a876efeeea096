package main

// TEMPORARY STUB owned by the command-layer engineer: replace this whole file
// with the real `proflens run [-c CMDS | FILE.plens]` (runMain). main.go only
// calls runMain(args) and uses its result as the exit status.

import (
	"fmt"
	"os"
)

func runMain(args []string) int {
	fmt.Fprintln(os.Stderr, "proflens run: not available yet")
	return 1
}
