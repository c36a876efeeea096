package gotrace

import (
	"context"
	"encoding/binary"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/exp/trace"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/internal/testtool"
)

// allocProgram makes 30 lists of 100 nodes while tracing, keeping the last
// five, then collects the garbage: 3,000 nodes allocated, and at least the
// 2,500 dropped ones freed.
const allocProgram = `package main

import (
	"os"
	"runtime"
	"runtime/trace"
)

type node struct {
	next *node
	v    [4]int
}

var sink []*node

func list(n int) *node {
	var h *node
	for range n {
		h = &node{next: h}
	}
	return h
}

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := trace.Start(f); err != nil {
		panic(err)
	}
	for range 30 {
		sink = append(sink, list(100))
		if len(sink) > 5 {
			sink[0] = nil
			sink = sink[1:]
		}
	}
	runtime.GC()
	runtime.GC()
	trace.Stop()
	f.Close()
}
`

// TestHeapObjects records a Go program's trace with GODEBUG=traceallocfree=1
// (skipped without a Go toolchain), loads it as a user does (frames at
// functions) and counts its memory events: every node
// the program makes, on its main goroutine, of the type main.node, and the
// nodes it drops freed.
func TestHeapObjects(t *testing.T) {
	goTool := testtool.Need(t, "go")
	dir := t.TempDir()
	for name, text := range map[string]string{"main.go": allocProgram, "go.mod": "module alloc\n\ngo 1.23\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "alloc.trace")
	cmd := exec.Command(goTool, "run", ".", out)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "GODEBUG=traceallocfree=1", "GOFLAGS=-mod=mod")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	p, err := analysis.Parse(context.Background(), "alloc.trace", data, analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var made, freed int64
	threads := map[string]bool{}
	for _, m := range p.Memory {
		if m.Stack >= 0 {
			t.Fatalf("memory event %+v has a stack; the runtime records none", m)
		}
		if m.Class < 0 || p.Frames[m.Class].Name != "main.node" {
			continue
		}
		if m.Free {
			freed += m.Count
		} else {
			made += m.Count
			threads[p.ThreadName(m.Thread)] = true
			if m.Bytes != 40 {
				t.Errorf("a main.node of %d bytes, want 40", m.Bytes)
			}
		}
	}
	if made != 3000 || freed < 2500 || freed > made || len(threads) != 1 || !threads["g1"] || p.MemorySource != analysis.MemoryTraced {
		t.Errorf("main.node: %d made on %v, %d freed (%s); want 3000 made on the main goroutine g1, 2500 to 3000 freed (traced)",
			made, threads, freed, p.MemorySource)
	}
	if len(p.Warnings) != 0 {
		t.Errorf("warnings %q, want none: the runtime's batches of types read whole", p.Warnings)
	}
}

// typeBatch writes an AllocFree batch of types as the runtime does: the
// kind byte 0, then per type its id, address, size, pointer bytes and name
// (length, bytes), all but the name as uvarints. ends[i] is the length of
// the batch up to the end of its type i.
func typeBatch(types map[uint64]heapType) (batch []byte, ends []int) {
	batch = []byte{0}
	for _, id := range slices.Sorted(maps.Keys(types)) {
		ty := types[id]
		for _, v := range []uint64{id, 0xc000010000 + id, uint64(ty.size), 8, uint64(len(ty.name))} {
			batch = binary.AppendUvarint(batch, v)
		}
		batch = append(batch, ty.name...)
		ends = append(ends, len(batch))
	}
	return batch, ends
}

// A batch of types reads whole; cut anywhere, it reads the types before
// the cut and says it could not read the rest, unless the cut falls
// between two types. Through sync, each batch it cannot read counts once.
func TestReadTypes(t *testing.T) {
	types := map[uint64]heapType{
		1:   {name: "main.node", size: 40},
		2:   {name: "[]uint8", size: 0},
		300: {name: "map.group[string]int", size: 1 << 20},
		7:   {name: "", size: 16},
	}
	batch, ends := typeBatch(types)
	for cut := 1; cut <= len(batch); cut++ {
		h := heap{types: map[uint64]heapType{}}
		ok := h.readTypes(batch[:cut])
		whole := cut == 1 || slices.Contains(ends, cut) // the kind byte alone is a batch of no types
		if ok != whole {
			t.Errorf("cut at %d of %d: read %v, want %v", cut, len(batch), ok, whole)
		}
		want := map[uint64]heapType{}
		for i, id := range slices.Sorted(maps.Keys(types)) {
			if ends[i] <= cut {
				want[id] = types[id]
			}
		}
		if !maps.Equal(h.types, want) {
			t.Errorf("cut at %d: types %v, want %v", cut, h.types, want)
		}
	}
	var h heap
	h.sync(trace.Sync{ExperimentalBatches: map[string][]trace.ExperimentalBatch{"AllocFree": {
		{Data: batch}, {Data: batch[:len(batch)-1]}, {Data: []byte{1, 2, 3}}, {Data: batch[:3]},
	}}})
	if h.bad != 2 || !maps.Equal(h.types, types) {
		t.Errorf("sync: %d bad batches, types %v; want 2 bad and %v", h.bad, h.types, types)
	}
}
