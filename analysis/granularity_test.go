package analysis

import (
	"reflect"
	"testing"
)

// TestGranule checks a frame of each kind at each granularity: the frame,
// its row name (as go tool pprof names rows) and its displayed name.
func TestGranule(t *testing.T) {
	goFrame := Frame{Name: "math/big.addVV", File: "/usr/local/go/src/math/big/arith_amd64.s", Line: 51, Addr: 0x504011}
	pyFrame := Frame{Name: "make_ir_context (/v/lib/python3.11/site-packages/jax/_src/interpreters/mlir.py:609)",
		File: "/v/lib/python3.11/site-packages/jax/_src/interpreters/mlir.py", Line: 609}
	pyFolded := Frame{Name: "decode (json/decoder.py:337)"}
	jsFrame := Frame{Name: "prepare file:///u/p/src/wrappers.js:4:35", File: "file:///u/p/src/wrappers.js", Line: 4}
	unsym := Frame{Name: "[prog]", Addr: 0x30}
	perf := Frame{Name: "epoll_wait", File: "/usr/lib/x86_64-linux-gnu/libc.so.6"}
	tests := []struct {
		fr      Frame
		g       Granularity
		want    Frame
		row     string
		display string
	}{
		{goFrame, Functions, Frame{Name: "math/big.addVV", File: goFrame.File}, "math/big.addVV", "math/big.addVV"},
		{goFrame, Lines, Frame{Name: "math/big.addVV", File: goFrame.File, Line: 51}, "math/big.addVV /usr/local/go/src/math/big/arith_amd64.s:51", "math/big.addVV:51"},
		{goFrame, Files, Frame{Name: goFrame.File, File: goFrame.File}, goFrame.File, goFrame.File},
		{goFrame, Addresses, goFrame, "0000000000504011 math/big.addVV /usr/local/go/src/math/big/arith_amd64.s:51", "math/big.addVV:51 @0x504011"},
		{pyFrame, Functions, Frame{Name: "make_ir_context (/v/lib/python3.11/site-packages/jax/_src/interpreters/mlir.py)", File: pyFrame.File},
			"make_ir_context (/v/lib/python3.11/site-packages/jax/_src/interpreters/mlir.py)", "jax._src.interpreters.mlir.make_ir_context"},
		{pyFrame, Lines, Frame{Name: pyFrame.Name, File: pyFrame.File, Line: 609}, pyFrame.Name, "jax._src.interpreters.mlir.make_ir_context:609"},
		{pyFrame, Files, Frame{Name: pyFrame.File, File: pyFrame.File}, pyFrame.File, pyFrame.File},
		{pyFolded, Functions, Frame{Name: "decode (json/decoder.py)"}, "decode (json/decoder.py)", "json.decoder.decode"},
		{pyFolded, Lines, pyFolded, pyFolded.Name, "json.decoder.decode:337"},
		{pyFolded, Files, Frame{Name: "json/decoder.py", File: "json/decoder.py"}, "json/decoder.py", "json/decoder.py"},
		{jsFrame, Functions, Frame{Name: jsFrame.Name, File: jsFrame.File}, jsFrame.Name, "wrappers.js prepare:4:35"},
		{jsFrame, Lines, jsFrame, jsFrame.Name, "wrappers.js prepare:4:35"},
		{jsFrame, Files, Frame{Name: jsFrame.File, File: jsFrame.File}, jsFrame.File, "file:/" + "//u/p/src/wrappers.js"},
		{unsym, Functions, Frame{Name: "[prog]"}, "[prog]", "[prog]"},
		{unsym, Files, Frame{Name: "[prog]"}, "[prog]", "[prog]"},
		{unsym, Addresses, unsym, "0000000000000030 [prog]", "[prog] @0x30"},
		{perf, Functions, perf, "epoll_wait", "libc.so.6`epoll_wait"},
		{perf, Lines, perf, "epoll_wait /usr/lib/x86_64-linux-gnu/libc.so.6", "libc.so.6`epoll_wait"},
		{Frame{Name: "main.f"}, Files, Frame{Name: "<unknown>"}, "<unknown>", "<unknown>"},
		{Frame{Name: "main.f", Lib: "/bin/prog"}, Files, Frame{Name: "[prog]", Lib: "/bin/prog"}, "[prog]", "[prog]"},
	}
	for _, tc := range tests {
		got := granule(tc.fr, tc.g)
		if got != tc.want {
			t.Errorf("granule(%+v, %v) = %+v, want %+v", tc.fr, tc.g, got, tc.want)
			continue
		}
		p := &Profile{Frames: []Frame{got}, Granularity: tc.g}
		if row := p.RowName(0); row != tc.row {
			t.Errorf("RowName(%+v at %v) = %q, want %q", got, tc.g, row, tc.row)
		}
		n := NewNames(p)
		if d := n.Prefix(0, 1<<20); d != tc.display {
			t.Errorf("display of %+v at %v = %q, want %q", got, tc.g, d, tc.display)
		}
	}
}

// TestAtKeepsGiven checks that a profile at one granularity derives the
// others from the frames its loader made, and that a filtered one has only
// its own.
func TestAtKeepsGiven(t *testing.T) {
	b := NewBuilder("test", ValueType{"samples", "count"})
	f1 := b.Frame(Frame{Name: "main.f", File: "m.go", Line: 3})
	f2 := b.Frame(Frame{Name: "main.f", File: "m.go", Line: 4})
	b.Add(b.Stack([]int32{f1}), []int64{1}, 0, false, "", nil)
	b.Add(b.Stack([]int32{f2}), []int64{2}, 0, false, "", nil)
	given := b.Finish()
	fn := given.At(Functions)
	if len(fn.Frames) != 1 || fn.Stacks.At(0)[0] != 0 || fn.Stacks.At(1)[0] != 0 {
		t.Fatalf("At(Functions) frames %v stacks %v %v, want one frame on both stacks", fn.Frames, fn.Stacks.At(0), fn.Stacks.At(1))
	}
	if fn.At(Functions) != fn {
		t.Errorf("At(Functions) of a profile at functions is not itself")
	}
	lines := fn.At(Lines)
	if !reflect.DeepEqual(lines.Frames, []Frame{{Name: "main.f", File: "m.go", Line: 3}, {Name: "main.f", File: "m.go", Line: 4}}) {
		t.Errorf("At(Functions).At(Lines) frames = %v, want the two lines", lines.Frames)
	}
	if got := fn.Available(); got != [4]int{1, 2, 1, 0} {
		t.Errorf("Available() = %v, want 1 function, 2 lines, 1 file, no address", got)
	}
	filtered := fn.Filter(Filter{TagIgnore: &TagFilter{}})
	if l := filtered.At(Lines); len(l.Frames) != 1 {
		t.Errorf("filtered.At(Lines) has %d frames, want 1: a filtered profile derives from its own frames", len(l.Frames))
	}
}

// TestDistinctStacks checks that stacks which At made equal count once.
func TestDistinctStacks(t *testing.T) {
	b := NewBuilder("test", ValueType{"samples", "count"})
	m, f1, f2 := b.Frame(Frame{Name: "main.main"}), b.Frame(Frame{Name: "main.f", Line: 3}), b.Frame(Frame{Name: "main.f", Line: 4})
	for _, st := range [][]int32{{m, f1}, {m, f2}, {m}} {
		b.Add(b.Stack(st), []int64{1}, 0, false, "", nil)
	}
	p := b.Finish()
	if got := p.At(Functions).distinctStacks(); got != 2 {
		t.Errorf("distinct stacks at functions = %d, want 2", got)
	}
	if got := p.At(Lines).distinctStacks(); got != 3 {
		t.Errorf("distinct stacks at lines = %d, want 3", got)
	}
}

// FuzzGranule checks, for any frame at any granularity, that the
// granule's displayed name is its elements joined, none of them empty for
// a non-empty name, and that a profile at a granularity derives the same
// frames again.
func FuzzGranule(f *testing.F) {
	f.Add("make_ir_context (/v/site-packages/jax/mlir.py:609)", "", int64(609), uint64(0), "")
	f.Add("math/big.addVV", "/usr/local/go/src/math/big/arith_amd64.s", int64(51), uint64(0x504011), "")
	f.Add("prepare file:///u/p/src/wrappers.js:4:35", "file:///u/p/src/wrappers.js", int64(4), uint64(0), "")
	f.Add("epoll_wait", "", int64(0), uint64(0), "/usr/lib/libc.so.6")
	f.Fuzz(func(t *testing.T, name, file string, line int64, addr uint64, lib string) {
		if name == "" {
			return
		}
		fr := Frame{Name: name, File: file, Line: line, Addr: addr, Lib: lib}
		for g := Functions; g <= Addresses; g++ {
			p := &Profile{Frames: []Frame{granule(fr, g)}, Granularity: g}
			n := NewNames(p)
			for _, id := range n.Elems[0] {
				if n.Strings[id] == "" {
					t.Fatalf("frame %+v at %v: an empty element in %q", fr, g, n.Strings)
				}
			}
			if p.RowName(0) == "" {
				t.Fatalf("frame %+v at %v: empty row name", fr, g)
			}
			if again := granule(p.Frames[0], g); again != p.Frames[0] {
				t.Fatalf("frame %+v at %v: granule %+v is not its own granule (%+v)", fr, g, p.Frames[0], again)
			}
		}
	})
}
