package compaction

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/proflens/proflens/analysis"
)

// findView is the full-names view of a tree whose functions share name
// ends: two JavaScript functions named prepare, one Go function at two
// places, a Python function with its line.
func findView(t testing.TB) *View {
	t.Helper()
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
	f := func(name string) int32 { return b.Frame(analysis.Frame{Name: name}) }
	main, write, malloc := f("main.main"), f("github.com/google/pprof/profile.(*Profile).Write"), f("runtime.mallocgc")
	for _, s := range []struct {
		stack []int32
		w     int64
	}{
		{[]int32{main, f("prepare file:///u/p/src/wrappers.js:4:35")}, 5},
		{[]int32{main, f("prepare file:///u/p/src/lib/other.js:1:1")}, 2},
		{[]int32{main, write}, 3},
		{[]int32{main, write, malloc}, 1},
		{[]int32{main, malloc}, 4},
		{[]int32{main, f("decode (json/decoder.py:337)")}, 1},
	} {
		b.Add(b.Stack(s.stack), []int64{s.w}, 0, false, "", nil)
	}
	tr := analysis.NewTree(b.Finish())
	return Compact(tr, NewState(tr, 1<<20), 0)
}

// TestFind checks each rule of a TARGET, and the errors, word for word.
func TestFind(t *testing.T) {
	v := findView(t)
	tests := []struct {
		target string
		re     bool
		want   string // the name found and how many nodes, or the error
	}{
		{"all", false, "all"},
		{"main.main", false, "main.main ×1"},
		{"runtime.mallocgc", false, "runtime.mallocgc ×2"},
		{"main.main > runtime.mallocgc", false, "runtime.mallocgc ×1"},
		{"mallocgc", false, "runtime.mallocgc ×2"},
		{"(*Profile).Write", false, "github.com/google/pprof/profile.(*Profile).Write ×1"},
		{"Write", false, "github.com/google/pprof/profile.(*Profile).Write ×1"},
		{"wrappers.js prepare", false, "wrappers.js prepare:4:35 ×1"},
		{"prepare:1:1", false, "lib/other.js prepare:1:1 ×1"},
		{"decode", false, "json.decoder.decode:337 ×1"},
		{"decoder.decode:337", false, "json.decoder.decode:337 ×1"},
		{"prepare", false, `"prepare" matches 2 names: "wrappers.js prepare:4:35" (2ec4), "lib/other.js prepare:1:1" (4737); give more of the name, a handle, or re=REGEX`},
		{"rite", false, `no compacted node has handle or name "rite", nor a name ending with it (run view to list the handles)`},
		{"", false, `empty target: give a handle, a name, a path like "lib1 > lib2", or all`},
		{"nosuch > runtime.mallocgc", false, `path "nosuch > runtime.mallocgc": no node named "nosuch" at the top (there: main.main)`},
		{"main.main > nosuch", false, `path "main.main > nosuch": no node named "nosuch" under main.main (there: wrappers.js prepare:4:35, github.com/google/pprof/profile.(*Profile).Write, runtime.mallocgc, lib/other.js prepare:1:1, json.decoder.decode:337)`},
		{"prepare:4", true, "wrappers.js prepare:4:35 ×1"},
		{`^runtime\.`, true, "runtime.mallocgc ×2"},
		{"prepare", true, `"re=prepare" matches 2 names: "wrappers.js prepare:4:35" (2ec4), "lib/other.js prepare:1:1" (4737); give more of the name, a handle, or re=REGEX`},
		{"nomatch", true, `no displayed name matches re=nomatch (run view to list the names)`},
	}
	for _, tc := range tests {
		f, err := find(v, tc.target, tc.re)
		got := ""
		switch {
		case err != nil:
			got = err.Error()
		case f.All:
			got = "all"
		default:
			got = f.Name + " ×" + string(rune('0'+len(f.Nodes)))
			for _, i := range f.Nodes {
				if v.Nodes[i].Name != f.Name {
					t.Errorf("Find(%q) found node %q under the name %q", tc.target, v.Nodes[i].Name, f.Name)
				}
			}
		}
		if got != tc.want {
			t.Errorf("Find(%q, re %v) = %s\nwant %s", tc.target, tc.re, got, tc.want)
		}
	}
}

// TestFindHandleAndOne checks that a handle names its node, and that One
// refuses a name at several places, listing them.
func TestFindHandleAndOne(t *testing.T) {
	v := findView(t)
	for _, i := range v.Preorder() {
		f, err := v.Find(v.Handle(i))
		if err != nil || !slices.Equal(f.Nodes, []int32{i}) {
			t.Errorf("Find(handle %s of %q) = %v, %v; want node %d", v.Handle(i), v.Nodes[i].Name, f.Nodes, err, i)
		}
	}
	f, err := v.Find("mallocgc")
	if err != nil {
		t.Fatal(err)
	}
	_, err = v.One("mallocgc", f)
	want := `"mallocgc" names 2 compacted nodes: "main.main > runtime.mallocgc" (` + v.Handle(f.Nodes[1]) + `), "main.main > github.com/google/pprof/profile.(*Profile).Write > runtime.mallocgc" (` + v.Handle(f.Nodes[0]) + `); give a handle or a path`
	if err == nil || err.Error() != want {
		t.Errorf("One(mallocgc) = %v\nwant %s", err, want)
	}
	if i, err := v.One("Write", must(v.Find("Write"))); err != nil || v.Nodes[i].Name != "github.com/google/pprof/profile.(*Profile).Write" {
		t.Errorf("One(Write) = %d, %v", i, err)
	}
}

// TestFindListsTen checks that an ambiguous target lists ten names and
// counts the rest.
func TestFindListsTen(t *testing.T) {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
	for i := range 12 {
		b.Add(b.Stack([]int32{b.Frame(analysis.Frame{Name: "pkg" + string(rune('a'+i)) + ".run"})}), []int64{int64(20 - i)}, 0, false, "", nil)
	}
	tr := analysis.NewTree(b.Finish())
	_, err := Compact(tr, NewState(tr, 1<<20), 0).Find("run")
	if err == nil || !strings.Contains(err.Error(), `"run" matches 12 names: "pkga.run" (`) || !strings.Contains(err.Error(), `"pkgj.run" (`) ||
		strings.Contains(err.Error(), `"pkgk.run"`) || !strings.Contains(err.Error(), "and 2 more;") {
		t.Errorf("Find(run) = %v, want the ten heaviest of 12 names and 2 more", err)
	}
}

func must(f Found, err error) Found {
	if err != nil {
		panic(err)
	}
	return f
}

// FuzzFind checks that any TARGET gives nodes of one name or an error,
// never a panic.
func FuzzFind(f *testing.F) {
	for _, s := range []string{"prepare", "all", "main.main > runtime.mallocgc", ":4:35", " @0x1", "2ec4", "a > ", ">"} {
		f.Add(s)
	}
	v := findView(f)
	f.Fuzz(func(t *testing.T, target string) {
		found, err := v.Find(target)
		if err != nil || found.All {
			return
		}
		for _, i := range found.Nodes {
			if v.Nodes[i].Name != found.Name {
				t.Fatalf("Find(%q) = node %q under the name %q", target, v.Nodes[i].Name, found.Name)
			}
		}
		if len(found.Nodes) == 0 {
			t.Fatalf("Find(%q) found nothing without an error", target)
		}
	})
}

// TestFindShortNames checks that a TARGET may give names as the views print
// them, without the directory every path of the profile shares: a name, a
// path of names and a regular expression. The printed name src/a.c names
// its node although it also ends another name.
func TestFindShortNames(t *testing.T) {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
	f := func(name string) int32 { return b.Frame(analysis.Frame{Name: name}) }
	main, a, libA := f("/home/u/proj/main.c"), f("/home/u/proj/src/a.c"), f("/home/u/proj/lib/src/a.c")
	b.Add(b.Stack([]int32{main, a}), []int64{3}, 0, false, "", nil)
	b.Add(b.Stack([]int32{main, libA}), []int64{2}, 0, false, "", nil)
	tr := analysis.NewTree(b.Finish())
	if tr.Names.Common != "/home/u/proj/" {
		t.Fatalf("common directory %q, want /home/u/proj/", tr.Names.Common)
	}
	v := Compact(tr, NewState(tr, 1<<20), 0)
	for _, c := range []struct {
		target string
		re     bool
		want   string
	}{
		{"src/a.c", false, "/home/u/proj/src/a.c"},
		{"main.c > src/a.c", false, "/home/u/proj/src/a.c"},
		{"main.c > lib/src/a.c", false, "/home/u/proj/lib/src/a.c"},
		{"^src/", true, "/home/u/proj/src/a.c"},
	} {
		found, err := find(v, c.target, c.re)
		if err != nil || len(found.Nodes) != 1 || v.Nodes[found.Nodes[0]].Name != c.want {
			t.Errorf("Find(%q, re %v) = %v, %v; want the node %s", c.target, c.re, found, err, c.want)
		}
	}
}

// TestEndsWithWordBoundary checks rule 5's word boundary against its
// statement: a suffix that starts with a letter, digit, "_" or "$" ends a
// name only after a character that is none of these.
func TestEndsWithWordBoundary(t *testing.T) {
	for c := byte(1); c < 128; c++ {
		word := unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)) || c == '_' || c == '$'
		name := "pkg" + string(c) + "run"
		if got := endsWith(name, "run"); got == word {
			t.Errorf("endsWith(%q, run) = %v; the character before run is a word character: %v", name, got, word)
		}
	}
}

// find is v.Find(target), or v.FindRe of target as a regular expression.
func find(v *View, target string, re bool) (Found, error) {
	if re {
		return v.FindRe(regexp.MustCompile(target))
	}
	return v.Find(target)
}
