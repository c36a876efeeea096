package kernel_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/proflens/proflens/kernel"
)

func TestComplete(t *testing.T) {
	lang.Add(t, &kernel.Command{Name: "zload", Summary: "loads", AllowAs: true,
		Args:    []kernel.Arg{{Name: "PATH", Kind: kernel.KindFile}},
		Options: []kernel.Option{{Name: "format", Values: []string{"auto", "pprof", "folded"}}, {Name: "out", Kind: kernel.KindFile}}})
	lang.Add(t, &kernel.Command{Name: "ztop", Summary: "tops", Profiles: 1,
		Args:    []kernel.Arg{{Name: "TARGET", Kind: kernel.KindTarget, Optional: true, Complete: func(c *kernel.Call, p string) []string { return []string{"h1", "h2", "x9"} }}},
		Options: []kernel.Option{{Name: "by", Values: []string{"flat", "cum"}}, {Name: "n", Default: "20"}}})
	dir := t.TempDir()
	for _, f := range []string{"cpu.pprof", "cpu two.pprof", "data/heap.pb.gz", ".hidden"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	in := kernel.New(dir, lang.Table())
	in.Session().Add(&kernel.Loaded{Name: "cpu"})
	in.Session().Add(&kernel.Loaded{Name: "heap"})
	tests := []struct {
		code    string // | marks the cursor
		start   int
		matches string
	}{
		{"ec|", 0, "echo"},
		{"echo hi\nve|", 8, "version"},
		{"zload |", 6, `"cpu two.pprof" cpu.pprof data/ format= out=`},
		{"zload c|", 6, `"cpu two.pprof" cpu.pprof`},
		{"zload da|", 6, "data/"},
		{"zload data/|", 6, "data/heap.pb.gz"},
		{"zload .h|", 6, ".hidden"},
		{"zload x fo|", 8, "format="},
		{"zload x format=f|", 8, "format=folded"},
		{"zload x format=|", 8, "format=auto format=pprof format=folded"},
		{"zload x out=data/|", 8, "out=data/heap.pb.gz"},
		{"zload x as |", 11, ""},
		{"ztop |", 5, "cpu heap h1 h2 x9 by= n="},
		{"ztop h|", 5, "heap h1 h2"},
		{"ztop cpu h|", 9, "h1 h2"},
		{"ztop by=cum |", 12, "cpu heap h1 h2 x9 n="},
		{"help ec|", 5, "echo"},
		{"echo é ü|", 7, ""},
		{"nosuch |", 7, ""},
		{"ztop cpu n=|", 9, ""},
	}
	var all []string
	for _, c := range lang.Table().Commands() {
		all = append(all, c.Name)
	}
	if got := in.Complete("", 0); strings.Join(got.Matches, " ") != strings.Join(all, " ") {
		t.Errorf("Complete(\"\") = %q, want every command %q", got.Matches, all)
	}
	for _, tt := range tests {
		i := strings.IndexByte(tt.code, '|')
		code := tt.code[:i] + tt.code[i+1:]
		cursor := len([]rune(tt.code[:i]))
		got := in.Complete(code, cursor)
		if strings.Join(got.Matches, " ") != tt.matches || got.CursorStart != tt.start || got.CursorEnd != cursor {
			t.Errorf("Complete(%q) = %q [%d,%d), want %q [%d,%d)", tt.code, got.Matches, got.CursorStart, got.CursorEnd, tt.matches, tt.start, cursor)
		}
	}
}

func TestCompleteTypes(t *testing.T) {
	lang.Add(t, &kernel.Command{Name: "ztyped", Summary: "typed", Profiles: 1,
		Args:    []kernel.Arg{{Name: "TARGET", Kind: kernel.KindTarget, Complete: func(c *kernel.Call, p string) []string { return []string{"cpu", "h1"} }}},
		Options: []kernel.Option{{Name: "by", Values: []string{"flat", "cum"}}}})
	in := kernel.New(t.TempDir(), lang.Table())
	in.Session().Add(&kernel.Loaded{Name: "cpu"})
	got := in.Complete("ztyped ", 7)
	var pairs []string
	for _, m := range got.Metadata["_jupyter_types_experimental"].([]map[string]any) {
		pairs = append(pairs, m["text"].(string)+":"+m["type"].(string))
		if m["start"] != 7 || m["end"] != 7 {
			t.Errorf("type entry %v, want start and end 7", m)
		}
	}
	if want := "cpu:profile h1:target by=:option"; strings.Join(pairs, " ") != want {
		t.Errorf("types %q, want %q (duplicates dropped)", pairs, want)
	}
	if strings.Join(got.Matches, " ") != "cpu h1 by=" {
		t.Errorf("matches %q", got.Matches)
	}
}

// TestCompleteWhileRunning checks that completion answers while a cell
// holds the session, skipping only the hooks.
func TestCompleteWhileRunning(t *testing.T) {
	lang.Add(t, &kernel.Command{Name: "ztarget", Summary: "targets", Profiles: 1,
		Args: []kernel.Arg{{Name: "TARGET", Kind: kernel.KindTarget, Complete: func(c *kernel.Call, p string) []string { return []string{"h1"} }}}})
	in := kernel.New(t.TempDir(), lang.Table())
	in.Session().Add(&kernel.Loaded{Name: "cpu"})
	done := kernel.Busy(in)
	got := in.Complete("ztarget ", 8)
	done()
	if strings.Join(got.Matches, " ") != "cpu" {
		t.Errorf("Complete while running = %q, want [cpu]", got.Matches)
	}
}

func TestInspect(t *testing.T) {
	in := kernel.New(t.TempDir(), lang.Table())
	tests := []struct {
		code string // | marks the cursor
		cmd  string // "" for no answer
	}{
		{"echo| hi", "echo"},
		{"ec|ho hi", "echo"},
		{"echo hi |", "echo"},
		{"version\necho hi\n|", ""},
		{"echo hi\nvers|ion", "version"},
		{"help ech|o", "echo"},
		{"echo?|", "echo"},
		{"nosuch|", ""},
		{"|", ""},
	}
	for _, tt := range tests {
		i := strings.IndexByte(tt.code, '|')
		code := tt.code[:i] + tt.code[i+1:]
		got := in.Inspect(code, len([]rune(tt.code[:i])), 0)
		switch {
		case tt.cmd == "" && got != nil:
			t.Errorf("Inspect(%q) = %v, want nothing", tt.code, got["text/plain"])
		case tt.cmd != "" && (got == nil || !strings.HasPrefix(got["text/plain"].(string), tt.cmd+" — ")):
			t.Errorf("Inspect(%q) = %v, want the doc of %s", tt.code, got, tt.cmd)
		case got != nil && got["text/markdown"] == nil:
			t.Errorf("Inspect(%q) has no text/markdown", tt.code)
		}
	}
}

func TestIsComplete(t *testing.T) {
	in := kernel.New(t.TempDir(), lang.Table())
	tests := []struct{ code, want string }{
		{"", "complete"},
		{"echo hi", "complete"},
		{"# just a comment", "complete"},
		{"echo?", "complete"},
		{`echo "open`, "incomplete"},
		{"echo \"two\nlines\"", "complete"},
		{"echo a \\", "incomplete"},
		{"echo a \\\n  b", "complete"},
		{"nosuch", "invalid"},
		{"echo a\nnosuch b", "invalid"},
		{`"echo" a`, "invalid"},
		{"nosuch?", "invalid"},
	}
	for _, tt := range tests {
		if got, _ := in.IsComplete(tt.code); got != tt.want {
			t.Errorf("IsComplete(%q) = %s, want %s", tt.code, got, tt.want)
		}
	}
}

// TestConcurrentComplete runs cells that add profiles while other
// goroutines complete and inspect. Every completion must propose loaded
// names only, each once and in order, and the last one every name. Under
// -race (make test runs the package so) it also proves that completion
// reads the session's names through their snapshot, not the live map.
func TestConcurrentComplete(t *testing.T) {
	lang.Add(t, &kernel.Command{Name: "zadd", Summary: "adds a profile",
		Args: []kernel.Arg{{Name: "N", Kind: kernel.KindProfile}},
		Run: func(c *kernel.Call) error {
			c.Session.Add(&kernel.Loaded{Name: c.Args[0]})
			return nil
		}})
	in := kernel.New(t.TempDir(), lang.Table())
	var names []string
	for i := range 7 {
		names = append(names, "p"+strconv.Itoa(i))
	}
	// Two goroutines complete, inspect and check while this one runs cells.
	done := make(chan bool)
	var wg sync.WaitGroup
	var started sync.WaitGroup
	counts := make([]int, 2)
	for g := range counts {
		wg.Add(1)
		started.Add(1)
		go func() {
			defer wg.Done()
			started.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				if msg := checkCompletion(in, names); msg != "" {
					t.Error(msg)
					return
				}
				counts[g]++
			}
		}()
	}
	started.Wait()
	for i := range 200 {
		if err := in.Execute(context.Background(), "zadd "+names[i%7], &kernel.Recorder{}); err != nil {
			t.Errorf("zadd: %v", err)
			break
		}
	}
	close(done)
	wg.Wait()
	if got := in.Complete("zadd ", 5).Matches; !slices.Equal(got, names) {
		t.Errorf("Complete(zadd ) after the cells = %q, want %q", got, names)
	}
	if got := in.Session().Names(); !slices.Equal(got, names) {
		t.Errorf("Session.Names() = %q, want %q", got, names)
	}
	t.Logf("completions while cells ran: %v", counts)
}

// checkCompletion completes, inspects and checks "zadd " once, and says
// what is wrong, or "".
func checkCompletion(in *kernel.Interp, names []string) string {
	got := in.Complete("zadd ", 5).Matches
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
		return fmt.Sprintf("Complete(zadd ) = %q while profiles were added, want loaded names, sorted, each once", got)
	}
	for _, m := range got {
		if !slices.Contains(names, m) {
			return fmt.Sprintf("Complete(zadd ) proposes %q, not a loaded profile", m)
		}
	}
	if h := in.Inspect("zadd p", 3, 0); h == nil {
		return "Inspect(zadd) gave nothing while a cell ran"
	}
	if st, _ := in.IsComplete("zadd p"); st != "complete" {
		return "IsComplete(zadd p) = " + st
	}
	return ""
}

// TestCompleteFormats: load's format= proposes the registered formats.
func TestCompleteFormats(t *testing.T) {
	in := kernel.New(t.TempDir(), lang.Table())
	code := "load x.prof format=p"
	got := in.Complete(code, len(code)).Matches
	if !slices.Contains(got, "format=pprof") || !slices.Contains(got, "format=perf") || slices.Contains(got, "format=folded") {
		t.Errorf("Complete(%q) = %q, want the formats starting with p", code, got)
	}
}

// TestCompleteValue: value= of a tree command proposes the value types of
// the profile the call names (or the current one).
func TestCompleteValue(t *testing.T) {
	in := kernel.New(t.TempDir(), lang.Table())
	fib, _ := filepath.Abs("../analysis/pprof/testdata/pprof-oracle/fib.pb.gz")
	if err := in.Execute(context.Background(), "load "+fib+"\nload demo:profvis-toy as toy", &kernel.Recorder{}); err != nil {
		t.Fatal(err)
	}
	for code, want := range map[string]string{
		"top fib value=":  "value=samples value=cpu",
		"view value=":     "value=samples",
		"top fib value=c": "value=cpu",
	} {
		if got := in.Complete(code, len(code)).Matches; strings.Join(got, " ") != want {
			t.Errorf("Complete(%q) = %q, want %q", code, got, want)
		}
	}
}
