package compaction

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	_ "github.com/proflens/proflens/analysis/formats" // every format
	"github.com/proflens/proflens/internal/golden"
)

// TestLevel1Languages compacts real profiles of several languages at level
// 1 (the kernel's `load F`, `level 1`, `view`) and checks the view against
// its golden file, and its nodes against the top units a reader of the
// language names: Python modules, npm packages and Node's modules, C++
// namespaces and native libraries, Rust crates, Go modules (below the
// processes, the roots of perf's stacks), and against text that belongs
// to no top unit (paths, special names). The
// profiles and their origins are in testdata/level1/README.md.
func TestLevel1Languages(t *testing.T) {
	for _, c := range []struct {
		file string
		want []string // compacted nodes the view has: the reader's top units
		not  []string // text no compacted node's name may hold
	}{
		{"py-spy.speedscope.json.gz", []string{"runpy", "experiment", "hydra", "simulator", "numpy", "scipy", "importlib"},
			[]string{"/home/", "site-packages", ".py"}},
		{"ponder.cpuprofile.gz", []string{"kysely", "better-sqlite3", "node:internal", "packages"},
			[]string{"file://", "/Users/", ".pnpm"}},
		{"firefox-android.perf.txt.gz", []string{"mozilla", "nsThread", "libc.so", "libxul.so", "libnss3.so"},
			[]string{"non-virtual thunk", "/system/lib"}},
		{"perf-rust-Yamakaky-dcpu.txt.gz", []string{"emulator", "simplelog", "log", "term", "core", "std", "libc-2.24.so"},
			[]string{"<term::"}},
		{"perf-iperf-stacks-pidtid-01.txt.gz", []string{"iperf", "libpthread-2.19.so", "libc-2.19.so", "vmlinux"},
			[]string{"/lib/"}},
		{"../../../analysis/testdata/heap.pb.gz", []string{"runtime", "github.com/dgraph-io/sroar", "modernc.org/libc", "gopkg.in/yaml%2ev3"}, nil},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			path := filepath.Join("testdata", "level1", c.file)
			p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			tr := analysis.NewTree(p)
			v := Compact(tr, NewState(tr, 1), p.DefaultValue)
			names := map[string]bool{}
			for _, nd := range v.Nodes {
				names[nd.Name] = true
				for _, bad := range c.not {
					if strings.Contains(nd.Name, bad) {
						t.Errorf("level 1 has %q, which holds %q", nd.Name, bad)
					}
				}
			}
			for _, want := range c.want {
				if !names[want] {
					t.Errorf("level 1 has no %q", want)
				}
			}
			var b bytes.Buffer
			b.WriteString("level 1: " + v.Counts() + "\n")
			if err := v.WriteText(&b, 60); err != nil {
				t.Fatal(err)
			}
			name := strings.TrimSuffix(filepath.Base(c.file), ".gz")
			golden.Check(t, filepath.Join("testdata", "level1", name+".level1.txt"), b.Bytes())
		})
	}
}
