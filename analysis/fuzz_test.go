package analysis

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzFormat checks the loaders' contract on arbitrary input: an error that
// names the input, or a profile whose samples, stacks and values are
// consistent — never a panic.
func fuzzFormat(f *testing.F, format string, seeds ...string) {
	for _, s := range seeds {
		data, err := os.ReadFile(filepath.Join("testdata", s))
		if err != nil {
			data = []byte(s) // an inline seed
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("in", data, LoadOptions{Format: format, Limit: 1 << 24})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "in: ") {
				t.Fatalf("error %q does not name the input", err)
			}
			return
		}
		checkLoaded(t, p)
	})
}

// checkLoaded checks the invariants every loader's result must keep.
func checkLoaded(t *testing.T, p *Profile) {
	if p.DefaultValue < 0 || p.DefaultValue >= len(p.ValueTypes) {
		t.Fatalf("default value %d of %d types", p.DefaultValue, len(p.ValueTypes))
	}
	for _, st := range p.Stacks.All() {
		for _, fr := range st {
			if fr < 0 || int(fr) >= len(p.Frames) {
				t.Fatalf("stack frame %d of %d", fr, len(p.Frames))
			}
		}
	}
	for _, s := range p.Samples {
		if s.Stack < 0 || int(s.Stack) >= p.Stacks.Len() || len(p.Values(&s)) != len(p.ValueTypes) {
			t.Fatalf("bad sample %+v", s)
		}
	}
	NewTree(p)
}

func FuzzPprof(f *testing.F) {
	fuzzFormat(f, "pprof", "devirt.pprof", "cppbench.small.contention", "pprof-fuzz-7e3c9248")
}

func FuzzFolded(f *testing.F) {
	fuzzFormat(f, "folded", "perf-dd-stacks-01-collapsed-pid.txt", "a;b 1\nb;c 2 3\n")
}

func FuzzHprof(f *testing.F) {
	fuzzFormat(f, "hprof", "basex-java.hprof.txt", "TRACE 1:\n\ta.b(c.java:1)\nCPU SAMPLES BEGIN (total = 1) x\n 1 1% 1% 1 1 a.b\nCPU SAMPLES END\n")
}

func FuzzPerf(f *testing.F) {
	fuzzFormat(f, "perf", "perf-dd-stacks-01.txt", "perf-java-stacks-02.txt")
}

// FuzzAuto goes through gzip and sniffing too.
func FuzzAuto(f *testing.F) {
	fuzzFormat(f, "", "devirt.pprof", "basex-java.hprof.txt", "perf-dd-stacks-01.txt", "perf-dd-stacks-01-collapsed-pid.txt")
}

// FuzzFoldedRoundTrip: WriteFolded of a folded profile reads back to the
// same folded text.
func FuzzFoldedRoundTrip(f *testing.F) {
	f.Add([]byte("a;b 1\nb;c 2\na;b 3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("in", data, LoadOptions{Format: "folded"})
		if err != nil || len(p.ValueTypes) != 1 {
			return
		}
		for _, fr := range p.Frames {
			if strings.ContainsAny(fr.Name, " \t") {
				return // "f 12" as a frame name reads back as a count column
			}
		}
		var once, twice bytes.Buffer
		if err := WriteFolded(&once, p, 0); err != nil {
			t.Fatal(err)
		}
		q, err := Parse("once", once.Bytes(), LoadOptions{Format: "folded"})
		if err != nil {
			if once.Len() == 0 {
				return // nothing but zero counts
			}
			t.Fatalf("re-read of %q: %v", once.String(), err)
		}
		WriteFolded(&twice, q, 0)
		if once.String() != twice.String() {
			t.Fatalf("round trip:\n%q\n%q", once.String(), twice.String())
		}
	})
}

func FuzzDTrace(f *testing.F) {
	fuzzFormat(f, "dtrace", "CPU     ID                    FUNCTION:NAME\n  0  64091                        :tick-60s \n\n\n              genunix`vn_free+0x9a\n              unix`sys_syscall+0x17a\n                1\n")
}
