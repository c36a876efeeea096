package avid

import (
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
)

func TestParseMappingErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"JDK class java.*\nPath class\n", "m.txt: line 2: expected `ENTITY class PATTERN` (three words), found 2 words"},
		{"# only a comment\n\n", "m.txt: no mapping lines"},
		{"JDK klass java.*", `m.txt: line 1: expected class (or package, module, namespace, file, function) after the entity JDK, found "klass"`},
		{"(other) class x.*", "m.txt: line 1: the entity name (other) is taken"},
		{"A class a.* extra", "m.txt: line 1: expected `ENTITY class PATTERN` (three words), found 4 words"},
		{strings.Repeat("A class a.*\n", MaxMappingLines+1), "m.txt: line 1001: more than 1000 mapping lines"},
	} {
		_, err := ParseMapping("m.txt", c.text)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseMapping(%q) error = %v, want %q", c.text, err, c.want)
		}
	}
}

// mapNames applies a mapping to a profile of the given frame names (in
// their language, guessed per name) and returns each frame's entity.
func mapNames(t *testing.T, mapping string, names ...string) (map[string]string, *EntityMap) {
	t.Helper()
	m, err := ParseMapping("m", mapping)
	if err != nil {
		t.Fatal(err)
	}
	p, em := mapNamesOf(m, names...)
	out := map[string]string{}
	for f, e := range em.Frame {
		out[p.Frames[f].Name] = em.Names[e]
	}
	return out, em
}

func TestMappingMatches(t *testing.T) {
	const mapping = `
# the paper's lines
Path      class   org.eclipse.core.runtime.Path
Runtime   class   org.eclipse.core.runtime.*
JDK       class   java.*
# Go, C++, Python and JavaScript
HTTP      package net/http.*
STL       namespace std::*
JSON      module  json.*
App       file    https://x.org/app.js*
Unused    class   nothing.matches.*
`
	got, em := mapNames(t, mapping,
		"org.eclipse.core.runtime.Path.segments", "org.eclipse.core.runtime.PathUtil.x", "java.lang.String.charAt",
		"javax.swing.JFrame.show", "net/http.(*Server).Serve", "std::vector<int>::push_back",
		"decode (json/decoder.py:337)", "render https://x.org/app.js:3:9", "main.main")
	want := map[string]string{
		"org.eclipse.core.runtime.Path.segments": "Path", // the class and its methods
		"org.eclipse.core.runtime.PathUtil.x":    "Runtime",
		"java.lang.String.charAt":                "JDK",
		"javax.swing.JFrame.show":                Other,
		"net/http.(*Server).Serve":               "HTTP",
		"std::vector<int>::push_back":            "STL",
		"decode (json/decoder.py:337)":           "JSON", // matched on the displayed name, the module first
		"render https://x.org/app.js:3:9":        "App",
		"main.main":                              Other,
	}
	for name, e := range want {
		if got[name] != e {
			t.Errorf("%s → %s, want %s", name, got[name], e)
		}
	}
	if len(em.Unused) != 1 || em.Unused[0] != "line 11: Unused    class   nothing.matches.*" {
		t.Errorf("Unused = %q, want line 11 only", em.Unused)
	}
	if strings.Join(em.Names, ",") != "Path,Runtime,JDK,HTTP,STL,JSON,App,Unused,(other)" {
		t.Errorf("Names = %q, want the entities in order and (other) last", em.Names)
	}
}

// The first matching line wins, whatever the entity: the order of the
// lines is the order of choice.
func TestMappingFirstMatchWins(t *testing.T) {
	got, _ := mapNames(t, "Runtime class org.eclipse.core.runtime.*\nPath class org.eclipse.core.runtime.Path\n",
		"org.eclipse.core.runtime.Path.segments")
	if e := got["org.eclipse.core.runtime.Path.segments"]; e != "Runtime" {
		t.Errorf("Path.segments → %s, want Runtime (its line comes first)", e)
	}
}

func FuzzParseMapping(f *testing.F) {
	f.Add("JDK class java.*\n# c\nPath class org.eclipse.core.runtime.Path\n")
	f.Add("A module json/*\nB namespace std::*")
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMapping("fuzz", text)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz: ") {
				t.Fatalf("error %q does not name the mapping", err)
			}
			return
		}
		if len(m.Entities) == 0 || len(m.rules) == 0 {
			t.Fatalf("mapping without entities or lines: %+v", m)
		}
		_, em := mapNamesOf(m, "java.lang.String.charAt", "a.b", "")
		for _, e := range em.Frame {
			if e < 0 || int(e) >= len(em.Names) {
				t.Fatalf("entity %d out of range %v", e, em.Names)
			}
		}
	})
}

func mapNamesOf(m *Mapping, names ...string) (*analysis.Profile, *EntityMap) {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
	for _, n := range names {
		b.Add(b.Stack([]int32{b.Frame(analysis.Frame{Name: n})}), []int64{1}, 0, false, "", nil)
	}
	p := b.Finish()
	return p, m.Apply(p)
}
