package commands

import (
	"fmt"
	"os"
	"testing"

	"github.com/proflens/proflens/live/demo"
)

// TestMain lets the test binary be the demo target: attach demo:… runs
// the program it is part of as demo.Subcommand, and in the tests that is
// this binary.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == demo.Subcommand {
		if err := demo.Main(os.Args[2:], os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
