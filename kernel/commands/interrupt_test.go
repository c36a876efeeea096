package commands

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
)

// TestCompactionInterruptKeepsState interrupts the commands that compact
// a whole profile of 100k call-tree nodes (the compaction looks at the
// context every 32k members) at their first three looks: each must answer
// KeyboardInterrupt and leave the profile's tree, state and cached view,
// and the export's file, as they were; an uninterrupted run then succeeds.
func TestCompactionInterruptKeepsState(t *testing.T) {
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
	if _, err := RunForTest(t, s, "load wide.folded as w"); err != nil {
		t.Fatal(err)
	}
	l := s.Get("w")
	for _, cell := range []string{"view w", "level w 2", "expand w all", "fit w nodes=50", "export w out.json", "collapse-recursion w", "level w using=m"} {
		if strings.Contains(cell, "using=") {
			if _, err := RunForTest(t, s, "mapping m <<\nLib class lib.*\nend"); err != nil {
				t.Fatal(err)
			}
		}
		for n := int64(1); n <= 3; n++ {
			was := *l
			_, err := kernel.RunCell(&cancelAfter{Context: context.Background(), n: n}, s, cell)
			if err == nil || !strings.Contains(err.Error(), "KeyboardInterrupt") {
				t.Fatalf("%s interrupted at look %d: %v, want KeyboardInterrupt", cell, n, err)
			}
			if !reflect.DeepEqual(*l, was) {
				t.Fatalf("%s interrupted at look %d changed the profile", cell, n)
			}
			if _, err := os.Stat(filepath.Join(s.Dir, "out.json")); err == nil {
				t.Fatalf("%s interrupted at look %d wrote out.json", cell, n)
			}
			if left, _ := filepath.Glob(filepath.Join(s.Dir, ".*.tmp")); len(left) > 0 {
				t.Fatalf("%s interrupted at look %d left %v", cell, n, left)
			}
		}
		if _, err := RunForTest(t, s, cell); err != nil {
			t.Fatalf("%s: %v", cell, err)
		}
		os.Remove(filepath.Join(s.Dir, "out.json"))
	}
}
