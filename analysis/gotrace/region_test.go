package gotrace

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/internal/testtool"
)

// regionProgram runs the CPU profiler during a trace and works in each
// function under known regions: inOuter in "outer", inInner in "inner"
// nested in it, inOuter again after "inner" ends, inY in "y" opened after
// "outer" ends, and inNone outside any region.
// The work is counted in loop turns, not time, so a busy machine only
// makes the program slower.
const regionProgram = `package main

import (
	"context"
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

var sink int

//go:noinline
func work() {
	for i := range 300_000_000 {
		sink += i ^ sink
	}
}

//go:noinline
func inOuter() { work() }

//go:noinline
func inInner() { work() }

//go:noinline
func inY() { work() }

//go:noinline
func inNone() { work() }

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(io.Discard); err != nil {
		panic(err)
	}
	if err := trace.Start(f); err != nil {
		panic(err)
	}
	ctx := context.Background()
	outer := trace.StartRegion(ctx, "outer")
	inOuter()
	inner := trace.StartRegion(ctx, "inner")
	inInner()
	inner.End()
	inOuter()
	outer.End()
	inNone()
	y := trace.StartRegion(ctx, "y")
	inY()
	y.End()
	inNone()
	trace.Stop()
	pprof.StopCPUProfile()
	f.Close()
}
`

// TestRegions records regionProgram's trace (skipped without a Go
// toolchain) and checks each CPU sample's region label against the region
// its function ran in: the innermost open one, none outside regions.
func TestRegions(t *testing.T) {
	goTool := testtool.Need(t, "go")
	dir := t.TempDir()
	for name, text := range map[string]string{"main.go": regionProgram, "go.mod": "module regions\n\ngo 1.23\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "regions.trace")
	cmd := exec.Command(goTool, "run", ".", out)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "GOFLAGS=-mod=mod")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	p, err := analysis.Parse(context.Background(), "regions.trace", data, analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"main.inOuter": "outer", "main.inInner": "inner", "main.inY": "y", "main.inNone": ""}
	seen := map[string]int{}
	for _, s := range p.Samples {
		for _, f := range p.Stacks.At(s.Stack) {
			region, ok := want[p.Frames[f].Name]
			if !ok {
				continue
			}
			seen[p.Frames[f].Name]++
			got := ""
			if r := p.Labels(&s)["region"]; len(r) > 0 {
				got = r[0]
			}
			if got != region {
				t.Logf("samples per function so far: %v", seen)
				t.Errorf("a sample in %s labelled region %q, want %q", p.Frames[f].Name, got, region)
			}
		}
	}
	for f := range want {
		if seen[f] == 0 {
			t.Errorf("no sample in %s (samples per function: %v)", f, seen)
		}
	}
}
