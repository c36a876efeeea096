// Package testtool helps tests and benchmarks. It finds the programs that
// tests use as oracles or drivers: valgrind's annotators, chromium, a JDK's
// jfr, binutils' c++filt. When one is missing, a test run by hand is skipped
// with the command that installs it; under make test (PROFLENS_STRICT=1,
// which .ci/run inherits) the test fails with that command instead, so a
// check that cannot run is never mistaken for a check that passed. Loop
// times a benchmark in CPU time as well as wall time.
package testtool

import (
	"os"
	"os/exec"
	"testing"
)

// install names, for each program a test may look up, what puts it on a
// Debian machine.
var install = map[string]string{
	"callgrind_annotate": "apt-get install -y valgrind",
	"cg_annotate":        "apt-get install -y valgrind",
	"valgrind":           "apt-get install -y valgrind",
	"gcc":                "apt-get install -y gcc libc6-dev",
	"g++":                "apt-get install -y g++",
	"chromium":           "apt-get install -y chromium",
	"c++filt":            "apt-get install -y binutils",
	"jfr":                "apt-get install -y openjdk-17-jdk-headless",
	"java":               "apt-get install -y openjdk-17-jdk-headless",
	"go":                 "install Go (https://go.dev/dl/)",
}

// Strict reports whether a missing program fails the test rather than
// skipping it.
func Strict() bool {
	return os.Getenv("PROFLENS_STRICT") == "1"
}

// Need returns the path of the program name, or ends the test: a skip when
// run by hand, a failure under make test. Both name the command that
// installs it.
func Need(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	how, ok := install[name]
	if !ok {
		how = "install it"
	}
	Missing(t, name+" is missing; "+how)
	return ""
}

// Missing ends the test because something it needs is absent: a skip when
// run by hand, a failure under make test.
func Missing(t testing.TB, why string) {
	t.Helper()
	if Strict() {
		t.Fatalf("%s (PROFLENS_STRICT=1: a check that cannot run fails)", why)
	}
	t.Skip(why)
}
