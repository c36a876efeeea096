package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/proflens/proflens/internal/golden"
	"github.com/proflens/proflens/kernel/kerneltest"
)

// TestPatternsHelpExample: the example of `help patterns` (the Go
// execution trace of demo:phasedemo, sampled, at level 2) reports no
// pattern that reads counts, since its counts are entries recovered from
// samples, and no recursion where compaction merged a closure into its
// function (main.record → runtime/trace → main.record.func1); with
// counts=recovered, every row that reads counts says they are lower
// bounds from samples.
func TestPatternsHelpExample(t *testing.T) {
	for _, c := range []struct{ opts, file string }{{"", "phasedemo-level2-patterns.txt"}, {" counts=recovered", "phasedemo-level2-recovered.txt"}} {
		rec, err := RunForTest(t, nil, "load demo:phasedemo as run\nlevel 2\npatterns"+c.opts)
		if err != nil {
			t.Fatal(err)
		}
		b := rec.Bundles()
		text := b[len(b)-1]["text/plain"].(string)
		golden.Check(t, filepath.Join("testdata", "blueprint", c.file), []byte(text))
		for _, row := range strings.Split(text, "\n") {
			if strings.HasPrefix(row, "F ") && strings.Contains(row, "main.record") {
				t.Errorf("recursion of a closure merged into its function: %s", row)
			}
			if c.opts == "" && regexp.MustCompile(`^[ACDE] `).MatchString(row) {
				t.Errorf("a pattern that reads counts, from counts recovered from samples: %s", row)
			}
			if c.opts != "" && regexp.MustCompile(`^[ABCDE] `).MatchString(row) && !strings.Contains(row, "at least") {
				t.Errorf("counts=recovered: a row that does not say its counts are lower bounds: %s", row)
			}
		}
	}
}

// TestBlueprintStartsAtEntry: the blueprint of a C program recorded by
// callgrind starts at main, below one thin bar for the loader's and the C
// library's start-up chain; fib, which ran 1,973 times, is one box 1,973
// calls wide whose time is counted once; (below main) twice on the stack
// is no recursion. Golden text and SVG.
func TestBlueprintStartsAtEntry(t *testing.T) {
	dir, err := filepath.Abs("testdata/blueprint")
	if err != nil {
		t.Fatal(err)
	}
	pats, pic := lastBundles(t, dir, "load hotcold.callgrind as hc\npatterns\nblueprint maxnodes=40")
	text := pic["text/plain"].(string)
	golden.Check(t, filepath.Join("testdata", "blueprint", "hotcold-blueprint.txt"), []byte(text))
	svg, _ := kerneltest.SVG(pic)
	golden.Check(t, filepath.Join("testdata", "blueprint", "hotcold-blueprint.svg"), []byte(svg))
	lines := strings.Split(text, "\n")
	if !strings.HasPrefix(lines[1], "start-up: ld-linux-x86-64.so.2`0x000000000001ab70 → hotcold`(below main) → libc.so.6`__libc_start_main@@GLIBC_2.34 → libc.so.6`(below main) [") ||
		!strings.HasPrefix(lines[2], "hotcold`main [") {
		t.Errorf("the blueprint does not start at main below the start-up chain:\n%s", strings.Join(lines[:3], "\n"))
	}
	if !strings.Contains(text, "\n  hotcold`fib [28605 Ir] 11.7% · calls 1,973 (callgrind) · from hotcold`main 1, hotcold`fib 1,972") {
		t.Errorf("fib is not one box of 1,973 calls, 28,605 Ir (callgrind_annotate's inclusive Ir):\n%s", text)
	}
	// main's box starts within 120 px of the picture's top: the start-up
	// chain is one thin bar, not four boxes as tall as the run.
	m := regexp.MustCompile(`<title>hotcold` + "`" + `main\n[^<]*</title><rect x="[0-9.]+" y="([0-9.]+)"`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatalf("no box for main")
	}
	if y, _ := strconv.ParseFloat(m[1], 64); y > 120 {
		t.Errorf("main's box at y=%g, want it near the top (at most 120)", y)
	}
	if !strings.Contains(svg, `id="b-startup"`) {
		t.Errorf("no start-up bar")
	}
	var doc struct {
		Patterns []struct {
			Pattern, Node string
		}
	}
	if err := json.Unmarshal(patternsJSON(t, pats), &doc); err != nil {
		t.Fatal(err)
	}
	var fs []string
	for _, p := range doc.Patterns {
		if p.Pattern == "F" {
			fs = append(fs, p.Node)
		}
	}
	if strings.Join(fs, " ") != "hotcold`fib" {
		t.Errorf("F at %q, want at hotcold`fib only", fs)
	}
}

// TestRecursionAtFullNames: F only where a function at its full name is
// called while on the stack: not a C++ namespace calling back into itself
// at level 1, not a framework calling back a class's other method at level
// 2, not [unknown] under [unknown]; but a real recursion through another
// namespace, at any level and by function or by context.
func TestRecursionAtFullNames(t *testing.T) {
	dir := t.TempDir()
	cg := func(calls ...string) string { // "caller callee count" lines, each callee's own cost 10
		var b strings.Builder
		b.WriteString("events: Ir\n")
		for _, c := range calls {
			f := strings.Fields(c)
			b.WriteString("fn=" + f[0] + "\n1 10\ncfn=" + f[1] + "\ncalls=" + f[2] + " 1\n1 100\n")
		}
		return b.String()
	}
	for _, c := range []struct {
		name, file, level, want string
	}{
		{"namespace", cg("main std::sort 1", "std::sort app::less 1", "app::less std::swap 1"), "1", ""},
		{"framework", cg("main app.Handler.serve 1", "app.Handler.serve web.Router.dispatch 1", "web.Router.dispatch app.Handler.handle 1"), "2", ""},
		{"unknown", cg("main [unknown] 1", "[unknown] 0x1ab70 1", "0x1ab70 [unknown] 1"), "99", ""},
		{"real", cg("main std::sort 1", "std::sort app::less 1", "app::less std::sort 1"), "1", "std::sort"},
	} {
		if err := os.WriteFile(filepath.Join(dir, c.name+".out"), []byte(c.file), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, by := range []string{"function", "context"} {
			pats, _ := lastBundles(t, dir, "load "+c.name+".out as p\nlevel "+c.level+"\npatterns by="+by+"\nblueprint by="+by)
			var doc struct {
				Patterns []struct {
					Pattern  string
					Evidence map[string]any
				}
			}
			if err := json.Unmarshal(patternsJSON(t, pats), &doc); err != nil {
				t.Fatal(err)
			}
			var fs []string
			for _, p := range doc.Patterns {
				if p.Pattern == "F" {
					fs = append(fs, p.Evidence["function"].(string))
				}
			}
			if strings.Join(fs, " ") != c.want {
				t.Errorf("%s at level %s by %s: F of %q, want %q", c.name, c.level, by, fs, c.want)
			}
		}
	}
}

// TestFlameStartsAtEntry: flame and show draw the same start-up chain as
// the blueprint, as one thin bar (10 px in the icicle) above main, where
// the view shows functions (show's default view groups them by library: the
// loader's library holds its start-up code and its other work alike, so no
// node of it is start-up alone).
func TestFlameStartsAtEntry(t *testing.T) {
	dir, err := filepath.Abs("testdata/blueprint")
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"flame", "level 9\nshow"} {
		_, pic := lastBundles(t, dir, "load hotcold.callgrind as hc\n"+cmd)
		text := pic["text/plain"].(string)
		lines := strings.Split(text, "\n")
		if !strings.HasPrefix(lines[1], "start-up: ld-linux-x86-64.so.2`0x000000000001ab70 → hotcold`(below main) → libc.so.6`__libc_start_main@@GLIBC_2.34 → libc.so.6`(below main) [") ||
			!strings.Contains(text, "\n  hotcold`main [120912 Ir]") {
			t.Errorf("%s does not start at main below the start-up chain:\n%s", cmd, strings.Join(lines[:3], "\n"))
		}
	}
	_, pic := lastBundles(t, dir, "load hotcold.callgrind as hc\nflame")
	svg, _ := kerneltest.SVG(pic)
	if !regexp.MustCompile(`<title>start-up: [^<]*</title><rect x="[0-9.]+" y="[0-9.]+" width="[0-9.]+" height="9.00" fill="#bbbbbb"`).MatchString(svg) {
		t.Errorf("the icicle has no thin grey start-up bar")
	}
}
