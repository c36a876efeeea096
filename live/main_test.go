package live

import (
	"fmt"
	"os"
	"testing"

	"github.com/proflens/proflens/live/demo"
)

// TestMain lets the test binary be the demo target: startDemo runs it
// again with demo.Subcommand, as attach runs the proflens binary.
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

// spawnDemo runs the demo target (this test binary) as a child process.
func spawnDemo(args ...string) (*demo.Process, error) { return demo.Spawn(os.Args[0], args...) }

// startDemo runs the demo target as a child process for the test.
func startDemo(t testing.TB, args ...string) *demo.Process {
	t.Helper()
	p, err := spawnDemo(args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	return p
}
