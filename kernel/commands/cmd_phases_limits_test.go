package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/proflens/proflens/kernel"
)

// v8Intervals writes a V8 CPU profile whose 10 ms intervals count, per
// name, rows[i][k] samples of function names[k] (script names[k].js), one
// sample per 100 µs from the interval's start (so at most 100 in all): with `load FILE
// value=samples` and `phases interval=10ms` the interval vectors are the
// rows, over the names' scripts.
func v8Intervals(t *testing.T, path string, names []string, rows [][]int) {
	t.Helper()
	type frame struct {
		FunctionName string `json:"functionName"`
		URL          string `json:"url"`
		LineNumber   int    `json:"lineNumber"`
		ColumnNumber int    `json:"columnNumber"`
	}
	type node struct {
		ID        int   `json:"id"`
		CallFrame frame `json:"callFrame"`
		Children  []int `json:"children,omitempty"`
	}
	nodes := []node{{ID: 1, CallFrame: frame{FunctionName: "(root)", LineNumber: -1, ColumnNumber: -1}}}
	for k, n := range names {
		nodes[0].Children = append(nodes[0].Children, k+2)
		nodes = append(nodes, node{ID: k + 2, CallFrame: frame{FunctionName: n, URL: n + ".js"}})
	}
	var samples, deltas []int
	last := 0
	for i, row := range rows {
		at := i * 10_000 // µs
		for k, c := range row {
			for range c {
				samples, deltas = append(samples, k+2), append(deltas, at-last)
				last, at = at, at+100
			}
		}
	}
	data, err := json.Marshal(map[string]any{"nodes": nodes, "startTime": 0, "endTime": len(rows) * 10_000,
		"samples": samples, "timeDeltas": deltas})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPhasesNumberOptions gives every number option of phases values that
// are not numbers, infinite or out of range: each is a usage error naming
// the option, never an internal error, and the profile keeps its last run.
func TestPhasesNumberOptions(t *testing.T) {
	s := phaseSession(t)
	if _, err := RunForTest(t, s, "load phasedemo-1.trace as one\nphases"); err != nil {
		t.Fatal(err)
	}
	before := phasesKey.Get(s.Get("one"))
	bad := map[string][]string{
		"eps":          {"NaN", "nan", "Inf", "+Inf", "-Inf", "infinity", "-0.1", "1.5", "1e309"},
		"delta":        {"NaN", "Inf", "-Inf", "-1e-9", "1.0000001"},
		"interval":     {"NaN", "Inf", "-Inf", "0", "-1s", "1e300"},
		"window":       {"NaN", "0", "-2", "1.5"},
		"maxintervals": {"NaN", "0", "-1", "1e6"},
		"maxcells":     {"0", "-5", "Inf"},
		"maxusing":     {"NaN", "0", "-1MiB", "Inf"},
	}
	for opt, values := range bad {
		for _, x := range values {
			cell := fmt.Sprintf("phases %s=%s", opt, x)
			_, err := RunForTest(t, s, cell)
			if err == nil || !strings.Contains(err.Error(), opt+"=") || strings.Contains(err.Error(), "Internal") {
				t.Errorf("%s: error %v, want a usage error naming %s=", cell, err, opt)
			}
		}
	}
	if phasesKey.Get(s.Get("one")) != before {
		t.Error("a refused phases run changed the profile's phases")
	}
}

// cancelAfter is a context whose Err reports Canceled from its n-th call
// on: an interrupt at a fixed point of a command's work.
type cancelAfter struct {
	context.Context
	n     int64
	calls atomic.Int64
}

func (c *cancelAfter) Err() error {
	if c.calls.Add(1) >= c.n {
		return context.Canceled
	}
	return nil
}

// TestPhasesInterruptKeepsState interrupts phases (with save=),
// similarity and timeline at several of their looks at the context: on a
// run of 800k intervals, then on a fresh profile of 5,000 names, where
// similarity and timeline first run phases with its defaults and
// similarity's matrix is most of the work. Each interrupted command must
// answer KeyboardInterrupt and leave the profile's phases, its picture and
// the saved file as they were; an uninterrupted run then replaces them.
func TestPhasesInterruptKeepsState(t *testing.T) {
	s := phaseSession(t)
	names := make([]string, 5000)
	rows := make([][]int, 200)
	for i := range names {
		names[i] = fmt.Sprintf("f%d", i)
	}
	for i := range rows {
		rows[i] = make([]int, (i+1)*25) // interval i: four samples of each of f(25i) to f(25i+24)
		for k := range 25 {
			rows[i][i*25+k] = 4
		}
	}
	v8Intervals(t, filepath.Join(s.Dir, "wide.cpuprofile"), names, rows)
	load := "load phasedemo-1.trace as one\nload wide.cpuprofile as wide\nload wide.cpuprofile as wide2\nphases one"
	if _, err := RunForTest(t, s, load); err != nil {
		t.Fatal(err)
	}
	for _, cell := range []string{"phases one interval=10us maxintervals=2000000 save=saved.json", "similarity wide", "timeline wide2"} {
		l := s.Get(strings.Fields(cell)[1])
		phases, picture := phasesKey.Get(l), l.Picture()
		_, savedBefore := os.Stat(filepath.Join(s.Dir, "saved.json"))
		interrupted := 0
		for _, n := range []int64{1, 2, 3, 4, 6, 10, 30, 60, 1 << 62} {
			_, err := kernel.RunCell(&cancelAfter{Context: context.Background(), n: n}, s, cell)
			if err == nil {
				break
			}
			if !strings.Contains(err.Error(), "KeyboardInterrupt") {
				t.Fatalf("%s interrupted at look %d: %v, want KeyboardInterrupt", cell, n, err)
			}
			interrupted++
			_, saved := os.Stat(filepath.Join(s.Dir, "saved.json"))
			if phasesKey.Get(l) != phases || !bytes.Equal(l.Picture(), picture) || (saved == nil) != (savedBefore == nil) {
				t.Fatalf("%s interrupted at look %d changed the session or the saved file", cell, n)
			}
		}
		_, saved := os.Stat(filepath.Join(s.Dir, "saved.json"))
		wantSaved := savedBefore == nil || strings.Contains(cell, "save=")
		if interrupted < 2 || phasesKey.Get(l) == phases || bytes.Equal(l.Picture(), picture) || (saved == nil) != wantSaved {
			t.Errorf("%s: %d interrupted runs, then a run that kept a new result %v (saved %v); want at least 2, then a new result",
				cell, interrupted, phasesKey.Get(l) != phases, saved == nil)
		}
	}
}

// TestPhasesUsingFiles checks that using= reads only regular files, and
// at most maxusing bytes of them, with errors saying why.
func TestPhasesUsingFiles(t *testing.T) {
	s := phaseSession(t)
	if err := syscall.Mkfifo(filepath.Join(s.Dir, "fifo.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte(" "), 2048)
	if err := os.WriteFile(filepath.Join(s.Dir, "big.json"), append(big, "{}"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(s.Dir, "dir.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ cell, want string }{
		{"phases using=/dev/zero", "/dev/zero is a character device, not a regular file"},
		{"phases using=fifo.json", "fifo.json is a named pipe (FIFO), not a regular file"},
		{"phases using=dir.json", "dir.json is a directory"},
		{"phases using=big.json maxusing=1KiB", "more than the limit of 1024 bytes"},
		{"phases using=big.json maxusing=1KiB", "raise the limit with maxusing="},
	}
	if _, err := RunForTest(t, s, "load phasedemo-1.trace"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		done := make(chan error, 1)
		go func() { _, err := RunForTest(t, s, tc.cell); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want one saying %q", tc.cell, err, tc.want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s blocked for 20 s", tc.cell)
		}
	}
	if _, err := RunForTest(t, s, "phases using=big.json maxusing=4KiB"); err != nil {
		t.Errorf("phases using=big.json maxusing=4KiB: %v", err)
	}
}

// TestPhasesTableRows checks that a run with more than tableRows phases
// lists the tableRows with most intervals, and says so: 150 intervals,
// each of its own name, are 150 one-interval phases with window=1.
func TestPhasesTableRows(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	names := make([]string, 150)
	rows := make([][]int, 150)
	for i := range names {
		names[i] = fmt.Sprintf("f%03d", i)
		rows[i] = make([]int, 150)
		rows[i][i] = 1
	}
	v8Intervals(t, filepath.Join(s.Dir, "many.cpuprofile"), names, rows)
	rec, err := RunForTest(t, s, "load many.cpuprofile value=samples\nphases interval=10ms window=1")
	if err != nil {
		t.Fatal(err)
	}
	text := rec.Bundles()[1]["text/plain"].(string)
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if len(lines) != 1+tableRows+1 || !strings.Contains(text, "the table lists the 100 of 150 phases with most intervals") {
		t.Fatalf("phases table has %d lines, want a header, %d rows and a note saying 100 of 150:\n%s", len(lines), tableRows, text)
	}
	if first, last := strings.Fields(lines[1])[0], strings.Fields(lines[tableRows])[0]; first != "1" || last != "100" {
		t.Errorf("table rows go from phase %s to %s, want 1 to 100 (all tie at one interval: the lowest ids)", first, last)
	}
}

// boundedChild is where runBounded's child process runs its cell.
const boundedChild = "PROFLENS_BOUNDED_CELL"

// TestBoundedChild runs the cell of runBounded in the child process; it
// is skipped in ordinary runs.
func TestBoundedChild(t *testing.T) {
	cell := os.Getenv(boundedChild)
	if cell == "" {
		t.Skip("runs only as runBounded's child")
	}
	_, err := RunForTest(t, kernel.NewSession(os.Getenv(boundedChild+"_DIR"), testTable()), cell)
	status, _ := os.ReadFile("/proc/self/status")
	_, peak, _ := strings.Cut(string(status), "VmHWM:")
	fmt.Printf("\nPEAK: %s\nRESULT: %v\n", strings.TrimSpace(strings.SplitN(peak, "\n", 2)[0]), err)
}

// runBounded runs cell in a fresh session over dir in a child process
// limited to limitMiB of address space and five minutes (a bound on a
// hung child, with room for a loaded machine; the cells take seconds), so
// that a command allocating without bound dies there instead of taking
// the machine. It
// returns the cell's error text ("<nil>" for none) and the child's peak
// resident memory in MiB (VmHWM, read by the child: the rusage of a child
// started by vfork counts the parent's pages too).
func runBounded(t *testing.T, dir, cell string, limitMiB int) (string, int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", fmt.Sprintf(`ulimit -v %d && exec "$0" -test.run='^TestBoundedChild$' -test.count=1 -test.v`, limitMiB<<10), os.Args[0])
	cmd.Env = append(os.Environ(), boundedChild+"="+cell, boundedChild+"_DIR="+dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s: %v", cell, err)
	}
	_, result, ok := strings.Cut(out.String(), "\nPEAK: ")
	var peakKB int64
	if _, serr := fmt.Sscanf(result, "%d kB\nRESULT: ", &peakKB); err != nil || !ok || serr != nil {
		t.Fatalf("%s: the child (limited to %d MiB) failed: %v\n%.2000s", cell, limitMiB, err, out.String())
	}
	_, result, _ = strings.Cut(result, "RESULT: ")
	result, _, _ = strings.Cut(result, "\n")
	return result, peakKB >> 10
}

// TestPhasesAttacks runs the attacks of a hostile notebook on phases, each in a
// child process limited to 3 GiB of address space: before the limits, the first took 23 GB,
// the V8 one 4 GB in 13 s. Each must now be refused at once with an error
// saying the limit, what the run would take and what fits, well under
// 200 MiB.
func TestPhasesAttacks(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", demoRecordings["phasedemo-1.trace"]))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "demo.trace"), data, 0o644)
	// Two samples 2,500 hours apart, as a V8 profile of a few hundred bytes.
	long := `{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":""},"children":[2]},` +
		`{"id":2,"callFrame":{"functionName":"work","url":"app.js"}}],"startTime":0,"endTime":9000000000000,` +
		`"samples":[2,2],"timeDeltas":[0,9000000000000]}`
	os.WriteFile(filepath.Join(dir, "long.cpuprofile"), []byte(long), 0o644)
	tests := []struct{ cell, want string }{
		{"load demo.trace\nphases interval=1ns", "8123973569 intervals, more than the limit of 1000000: an interval of 10µs or longer fits; or raise the limit with maxintervals="},
		{"load demo.trace\nphases interval=100ns", "81239736 intervals, more than the limit of 1000000"},
		{"load demo.trace\nphases interval=1ns\nsimilarity", "more than the limit of 1000000"},
		{"load long.cpuprofile\nphases interval=1ms", "9000000001 intervals, more than the limit of 1000000: an interval of 10s or longer fits"},
		{"load demo.trace\nphases interval=1ms maxintervals=100", "an interval of 100ms or longer fits"},
		// A raised limit stops at what half the machine's memory holds, and
		// says so.
		{"load demo.trace\nphases interval=1ns maxintervals=9223372036854775807", "(the limit is what half of this machine's memory holds)"},
		{"load demo.trace\nphases using=/dev/zero", "/dev/zero is a character device"},
		{"load demo.trace\nphases interval=10us eps=1 delta=1 strict=true maxcells=1000", "more than the limit of 1000: fewer names"},
		{"load demo.trace\nphases delta=NaN", "delta=NaN is not a finite number"},
	}
	for _, tc := range tests {
		got, peak := runBounded(t, dir, tc.cell, 3072)
		t.Logf("%q: %d MiB: %s", tc.cell, peak, got)
		if !strings.Contains(got, tc.want) || peak > 200 {
			t.Errorf("%q: %s after %d MiB, want an error saying %q under 200 MiB", tc.cell, got, peak, tc.want)
		}
	}
}

// BenchmarkPhasesMaxIntervals runs `phases interval=10us` on the first
// demo recording: 812k intervals, near the default limit, with its table
// and timeline.
func BenchmarkPhasesMaxIntervals(b *testing.B) {
	s := phaseSession(b)
	if _, err := RunForTest(b, s, "load phasedemo-1.trace"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RunForTest(b, s, "phases interval=10us"); err != nil {
			b.Fatal(err)
		}
	}
}
