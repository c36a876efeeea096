package callgrind

import (
	"cmp"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// TestAnnotateSelfCosts records testdata/prog.cpp (C++ built with g++ -O2,
// so that the standard library's code is inlined from its headers, and
// glibc's and ld.so's functions hold code inlined from other files: fi=
// and fe= lines) and checks every function's self cost, per event, against
// callgrind_annotate's exactly. callgrind_annotate counts a function by its
// file and its name, and the code inlined into it from another file as the
// function "FILE:fn"; the loader has it as the frame "fn [inlined from
// FILE]" below the function. Recursion contexts ("fib'2") count as their
// function.
func TestAnnotateSelfCosts(t *testing.T) {
	dir := recordWith(t, "prog.cpp", "g++", "-O2", "-g")
	p, err := analysis.Load(context.Background(), filepath.Join(dir, "cg.out"), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, events := annotateSelf(t, dir)
	got := map[string][]int64{}
	for i := range p.Samples {
		s := &p.Samples[i]
		st := p.Stacks.At(s.Stack)
		f := p.Frames[st[len(st)-1]]
		name, _, _ := strings.Cut(f.Name, " [inlined from ")
		key := cmp.Or(strings.TrimPrefix(f.File, dir+"/"), "???") + ":" + name
		if got[key] == nil {
			got[key] = make([]int64, len(events))
		}
		for e := range events {
			got[key][e] += p.Value(s, e)
		}
	}
	checked := 0
	for key, w := range want {
		g := got[key]
		for e := range events {
			if g == nil && w[e] != 0 || g != nil && g[e] != w[e] {
				t.Errorf("%s: self %s %v, callgrind_annotate %d", key, events[e], g, w[e])
				break
			}
		}
		checked++
	}
	for key, g := range got {
		if _, ok := want[key]; !ok && !isZero(g) {
			t.Errorf("%s: self %v, not in callgrind_annotate's list", key, g)
		}
	}
	if checked < 100 {
		t.Errorf("checked %d functions, want more than 100 (is callgrind_annotate's output read?)", checked)
	}
	if !strings.Contains(strings.Join(p.Notes, " "), "as gprof does") {
		t.Errorf("notes %q: want the unrolling's assumption stated", p.Notes)
	}
}

var (
	annotateSelfLine = regexp.MustCompile(`^\s*([\d,]+(?: \(\s*[\d.]+%\))?|\.)\s(.*)$`)
	annotateObject   = regexp.MustCompile(` \[(/[^\[\]]*|\?\?\?)\]$`) // the object; code inlined from a file has none
)

// annotateSelf runs callgrind_annotate --inclusive=no on DIR/cg.out and
// returns each function's self cost per event, keyed "file:name" with the
// name cleaned as the loader cleans names, and the events.
func annotateSelf(t *testing.T, dir string) (map[string][]int64, []string) {
	out := run(t, dir, "callgrind_annotate", "--inclusive=no", "--threshold=100", "--auto=no", "cg.out")
	var events []string
	self := map[string][]int64{}
	inList := false
	for _, l := range strings.Split(out, "\n") {
		if f, ok := strings.CutPrefix(l, "Events shown:"); ok {
			events = strings.Fields(f)
		}
		if strings.HasSuffix(l, "file:function") {
			inList = true
			continue
		}
		if !inList || strings.TrimSpace(l) == "" || strings.HasPrefix(l, "-") {
			continue
		}
		cols := columns(l)
		if len(cols) < len(events) {
			continue
		}
		rest := l
		for range events { // drop the event columns
			m := annotateSelfLine.FindStringSubmatch(rest)
			if m == nil {
				t.Fatalf("cannot read callgrind_annotate's line %q", l)
			}
			rest = m[2]
		}
		fn := annotateObject.ReplaceAllString(strings.TrimSpace(rest), "")
		file, name, ok := strings.Cut(fn, ":")
		if !ok {
			t.Fatalf("no file:function in %q", l)
		}
		key := file + ":" + analysis.CleanName(recursion.ReplaceAllString(name, ""))
		if self[key] == nil {
			self[key] = make([]int64, len(events))
		}
		for e := range events {
			self[key][e] += cols[e]
		}
	}
	if len(events) == 0 || len(self) == 0 {
		t.Fatalf("no events or functions in callgrind_annotate's output:\n%s", out)
	}
	return self, events
}
