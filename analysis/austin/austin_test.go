package austin

import (
	"context"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestGoldens loads the minimal files of testdata: a wall-mode file with
// two processes and threads, an idle sample (no frames) and the GC marker;
// a full-mode file in the alternative frame format (L<line> pseudo-frames)
// with memory allocated and released.
func TestGoldens(t *testing.T) {
	testprof.Goldens(t, "testdata/wall.austin", "testdata/full-alt.austin")
}

// Processes and threads are filters, not frames: the wall file's three
// threads in two processes, selected by id.
func TestThreads(t *testing.T) {
	p, err := analysis.Load(context.Background(), "testdata/wall.austin", analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The file, summed by hand: process 4317 thread 0:4317 1200+800+100+400 µs, 0:4318 3000, process 4319 50.
	want := map[string]int64{"0:4317": 2500e3, "0:4318": 3000e3, "0:4319": 50e3}
	for _, sh := range analysis.ThreadShares(p, 0) {
		if want[sh.Thread.ID] != sh.Value {
			t.Errorf("thread %q (pid %s): %d ns, want %d", sh.Thread.ID, sh.Thread.PID, sh.Value, want[sh.Thread.ID])
		}
	}
	for _, f := range p.Frames {
		if strings.HasPrefix(f.Name, "P") || strings.HasPrefix(f.Name, "T0") {
			t.Errorf("frame %q: a process or thread became a frame", f.Name)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"metric", "P1;T1;a.py:f:1 x\n", "line 1: expected an integer metric"},
		{"full", "# mode: full\nP1;T1;a.py:f:1 10\n", "line 2: expected 3 metric(s) in full mode"},
		{"nometric", "P1;T1;a.py:f:1\n", "line 1: expected a sample"},
		{"line", "P1;T1;L3 10\n", "line 1: expected a frame \"file:function\" before L3"},
		{"none", "# austin: 3\n", "line 2: expected at least one sample"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := analysis.Parse(context.Background(), c.name, []byte(c.data), analysis.LoadOptions{Format: "austin"})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

func TestSplitFrame(t *testing.T) {
	for in, want := range map[string]string{
		"/app/x.py:main:12": "/app/x.py|main|12",
		"<frozen importlib._bootstrap>:_find_and_load:1007": "<frozen importlib._bootstrap>|_find_and_load|1007",
		`C:\app\x.py:f:3`: `C:\app\x.py|f|3`,
		"/app/x.py:main":  "/app/x.py|main|",
		":f:3":            "|f|3",
		"f":               "|f|",
		"x.py:f:":         "x.py:f||",
	} {
		file, fn, line := splitFrame(in)
		if got := file + "|" + fn + "|" + line; got != want {
			t.Errorf("splitFrame(%q) = %q, want %q", in, got, want)
		}
	}
}
