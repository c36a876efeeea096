package commands

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis/gen"
	"github.com/proflens/proflens/kernel"
)

// TestOutputsBounded runs the commands whose outputs grow with the view
// (level 99, view max=0, export .json) on a generated profile of 600k
// call-tree nodes, in a child process (runBounded): the cell's outputs
// are written only as far as its budget goes and the export streams, so
// its peak memory stays within six times that of the load alone (the view
// at full names, 3.4 times, is most of it; 4.5 in all). Built whole, the
// outputs took 29 times the load's memory.
func TestOutputsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a generated profile of 600k call-tree nodes twice")
	}
	if raceEnabled {
		t.Skip("measures peak memory, which the race detector's shadow memory distorts; the ordinary run checks it")
	}
	dir := t.TempDir()
	path, err := gen.File(dir, gen.Config{Samples: 250_000, Stacks: 30_000, Functions: 12_000, MeanDepth: 40, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	load := "load " + filepath.Base(path) + " as big"
	got, loaded := runBounded(t, dir, load, 4096)
	if got != "<nil>" {
		t.Fatalf("%s: %s", load, got)
	}
	cell := load + "\nlevel big 99 max=0\nview big max=0\nexport big big.json"
	got, peak := runBounded(t, dir, cell, 4096)
	t.Logf("load: %d MiB; with the outputs: %d MiB", loaded, peak)
	if got != "<nil>" || peak > 6*loaded {
		t.Errorf("%q: %s after %d MiB, want no error within %d MiB (six times the load's)", cell, got, peak, 6*loaded)
	}
}

// lookCounter is a context that counts the looks at it and reports
// Canceled from its n-th on (never, for n 0).
type lookCounter struct {
	context.Context
	n, looks int64
}

func (c *lookCounter) Err() error {
	if c.looks++; c.n > 0 && c.looks >= c.n {
		return context.Canceled
	}
	return nil
}

// TestOutputInterrupts interrupts the commands that show a view, with a
// budget of 4 MiB, at their looks at the context (the first five, then
// every seventh, and the last), most of them while they write their
// outputs: each must answer
// KeyboardInterrupt, show nothing of the view and leave the profile as it
// was. The writing looks at the context at least once for every 64 KiB it
// writes.
func TestOutputInterrupts(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	var b strings.Builder
	for p := range 100 {
		for g := range 1000 {
			fmt.Fprintf(&b, "main.run;lib.p%d.f;lib.q%d.g%d %d\n", p, g%10, g, 1+g%7)
		}
	}
	if err := os.WriteFile(filepath.Join(s.Dir, "wide.folded"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := RunForTest(t, s, "load wide.folded as w\nset max=4MiB\nlevel w 99"); err != nil {
		t.Fatal(err)
	}
	l := s.Get("w")
	for _, cell := range []string{"view w max=0", "level w 99 max=0", "collapse-recursion w max=0", "fit w nodes=5000 max=0"} {
		all := &lookCounter{Context: context.Background()}
		if _, err := kernel.RunCell(all, s, cell); err != nil {
			t.Fatalf("%s: %v", cell, err)
		}
		// The 100k nodes' text and JSON are more than the budget: the
		// writing of 4 MiB looks 64 times (the fit's 5,000 nodes, less).
		if all.looks < 48 && !strings.HasPrefix(cell, "fit") {
			t.Errorf("%s looked at the context %d times, want at least once per 64 KiB of the 4 MiB it writes", cell, all.looks)
		}
		for n := int64(1); n <= all.looks; n = next(n, all.looks, raceEnabled) {
			was := *l
			rec, err := kernel.RunCell(&lookCounter{Context: context.Background(), n: n}, s, cell)
			if err == nil || !strings.Contains(err.Error(), "KeyboardInterrupt") {
				t.Fatalf("%s interrupted at look %d of %d: %v, want KeyboardInterrupt", cell, n, all.looks, err)
			}
			if len(rec.Bundles()) > 0 {
				t.Fatalf("%s interrupted at look %d of %d showed %.200s", cell, n, all.looks, rec.Text())
			}
			if !reflect.DeepEqual(*l, was) {
				t.Fatalf("%s interrupted at look %d of %d changed the profile", cell, n, all.looks)
			}
		}
	}
}

// next is the look after n to interrupt at: every one up to 5, then every
// seventh, and the last. Under the race detector, whose runs are ten times
// slower and which looks for races rather than for the places a cell
// stops, the first, the middle and the last.
func next(n, last int64, few bool) int64 {
	switch {
	case few && n < last/2:
		return last / 2
	case few && n < last:
		return last
	case few:
		return n + 1
	case n < 5:
		return n + 1
	case n < last:
		return min(n+7, last)
	}
	return n + 1
}
