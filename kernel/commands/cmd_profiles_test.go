package commands

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
)

func TestLoadNamesAndProfiles(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	rec, err := RunForTest(t, s, "load demo:profvis-toy\nload demo:profvis-toy\nload demo:profvis-toy as toy\nfilter profvis-toy2 hide=^lib3\nprofiles")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Names(), []string{"profvis-toy", "profvis-toy2", "toy"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after three loads, Names() = %v, want %v", got, want)
	}
	if cur := s.Current(); cur == nil || cur.Name != "toy" {
		t.Errorf("current = %v, want toy", cur)
	}
	b := rec.Bundles()
	if len(b) != 4 {
		t.Fatalf("got %d bundles, want 4 (three summaries and the list)", len(b))
	}
	list := b[3]["text/plain"].(string)
	if !strings.Contains(list, "*") || strings.Count(list, "hprof") != 3 || !strings.Contains(list, "profvis-toy2  hprof  ") ||
		!strings.HasSuffix(strings.Split(list, "\n")[2], "  hide=^lib3") {
		t.Errorf("profiles =\n%s\nwant three hprof rows, one current, profvis-toy2 with its filter", list)
	}
}

func TestDefaultName(t *testing.T) {
	for in, want := range map[string]string{
		"dir/cpu.pb.gz":             "cpu",
		"demo:profvis-toy":          "profvis-toy",
		"java.hprof.txt":            "java",
		"1644509272337470000.pb.gz": "p1644509272337470000",
		"my profile (2).pprof":      "my_profile__2",
		"x/.pprof":                  "pprof",
		"data/many/*.pb.gz":         "many",
		"cpu-*.pb.gz":               "cpu",
	} {
		if got := defaultName(in); got != want {
			t.Errorf("defaultName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTopJSONMatchesAnalysis checks the JSON contract of top against
// analysis.NewTop on the same profile.
func TestTopJSONMatchesAnalysis(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	rec, err := RunForTest(t, s, "load demo:profvis-toy as toy\ntop toy n=3 by=cum hide=^lib3")
	if err != nil {
		t.Fatal(err)
	}
	b := rec.Bundles()
	js := b[len(b)-1]["application/json"].(map[string]any)
	l := s.Get("toy")
	top := analysis.NewTop(l.Tree(), analysis.TopOptions{ByCum: true, N: 3, Hide: regexpMust(t, "^lib3")})
	if js["value"] != "samples" || js["unit"] != "count" || js["total"] != top.Total {
		t.Errorf("top JSON header = %v %v %v, want samples count %d", js["value"], js["unit"], js["total"], top.Total)
	}
	rows := js["rows"].([]map[string]any)
	if len(rows) != len(top.Rows) {
		t.Fatalf("top JSON has %d rows, want %d", len(rows), len(top.Rows))
	}
	for i, r := range top.Rows {
		want := map[string]any{"name": r.Name, "flat": r.Flat, "cum": r.Cum}
		if !reflect.DeepEqual(rows[i], want) {
			t.Errorf("row %d = %v, want %v", i, rows[i], want)
		}
	}
}

func TestCommandErrors(t *testing.T) {
	for _, tc := range []struct{ code, want string }{
		{"top", "no profile loaded"},
		{"load demo:profvis-toy\ntop focus=(", "focus=( is not a regular expression"},
		{"load demo:profvis-toy\ntop value=cpu", "no such value type"},
		{"load demo:profvis-toy\ntree min=abc", "min=abc"},
		{"load demo:profvis-toy\nexport out.xyz", "unknown extension"},
		{"load demo:profvis-toy limit=lots", "limit=lots"},
		{"load nosuchfile.pprof", "nosuchfile.pprof"},
		{"load demo:profvis-toy\ntop nosuch", "no profile is named nosuch"},
	} {
		_, err := RunForTest(t, nil, tc.code)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.code, err, tc.want)
		}
	}
}

func TestExportPprofRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := kernel.NewSession(dir, testTable())
	if _, err := RunForTest(t, s, "load demo:profvis-toy as toy\nexport toy toy.pb.gz\nload toy.pb.gz as back\ntop toy n=0\ntop back n=0"); err != nil {
		t.Fatal(err)
	}
	a := analysis.NewTop(s.Get("toy").Tree(), analysis.TopOptions{})
	b := analysis.NewTop(s.Get("back").Tree(), analysis.TopOptions{})
	for _, top := range []*analysis.Top{a, b} {
		for i := range top.Rows {
			top.Rows[i].Frame = 0 // the frames are numbered in another order
		}
	}
	if !reflect.DeepEqual(a.Rows, b.Rows) || a.Total != b.Total {
		t.Errorf("top after pprof round trip = %+v, want %+v", b.Rows, a.Rows)
	}
	if got := s.Get("back").Profile.Source; got != "toy.pb.gz" || filepath.IsAbs(got) {
		t.Errorf("source = %q, want toy.pb.gz", got)
	}
}

func regexpMust(t *testing.T, s string) *regexp.Regexp {
	t.Helper()
	re, err := regexp.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	return re
}

// TestSeriesAndFolded exports the demo as pprof twice, loads the two files
// as a series, and checks that its intervals and folded export add up.
func TestSeriesAndFolded(t *testing.T) {
	dir := t.TempDir()
	s := kernel.NewSession(dir, testTable())
	code := "load demo:profvis-toy as toy\nexport toy a1.pprof\nexport toy a2.pprof\nload \"a*.pprof\"\nexport toy toy.folded\nexport a a.folded"
	if _, err := RunForTest(t, s, code); err != nil {
		t.Fatal(err)
	}
	a := s.Get("a")
	if a == nil {
		t.Fatalf("series not loaded under its directory's name; have %v", s.Names())
	}
	if n := len(a.Profile.Intervals) - 1; n != 2 {
		t.Errorf("series has %d intervals, want 2", n)
	}
	if got, want := a.Profile.Total(0), 2*s.Get("toy").Profile.Total(0); got != want {
		t.Errorf("series total = %d, want %d", got, want)
	}
	toy, err := os.ReadFile(filepath.Join(dir, "toy.folded"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "lib1.Whale.breath;lib1.Mammal.inhale;lib2.Lung.inhale;lib2.Muscle.contract;lib2.Nerve.transmit;lib3.Signal.travel 3\n"; !strings.Contains(string(toy), want) {
		t.Errorf("toy.folded =\n%s\nwant a line %q", toy, want)
	}
}

// TestLoadOptions checks value= (the default value type of top and tree)
// and format= on a real pprof file.
func TestLoadOptions(t *testing.T) {
	fib, err := filepath.Abs("../../analysis/pprof/testdata/pprof-oracle/fib.pb.gz")
	if err != nil {
		t.Fatal(err)
	}
	s := kernel.NewSession(t.TempDir(), testTable())
	rec, err := RunForTest(t, s, "load "+fib+" value=samples format=pprof\ntop n=1")
	if err != nil {
		t.Fatal(err)
	}
	if l := s.Get("fib"); l == nil || l.Profile.ValueTypes[l.Value].Type != "samples" {
		t.Fatalf("load value=samples: profile %v, want value type samples", l)
	}
	b := rec.Bundles()
	if js := b[len(b)-1]["application/json"].(map[string]any); js["value"] != "samples" || js["total"] != int64(2974) {
		t.Errorf("top after value=samples: value %v total %v, want samples 2974", js["value"], js["total"])
	}
	// as NAME may stand among the options.
	if _, err := RunForTest(t, s, "load "+fib+" as p value=cpu limit=1GiB"); err != nil {
		t.Fatal(err)
	}
	if l := s.Get("p"); l == nil || l.Profile.ValueTypes[l.Value].Type != "cpu" {
		t.Errorf("load FILE as p value=cpu: profile %v, want p with value type cpu", l)
	}
	for _, bad := range []string{"value=nosuch", "format=folded"} {
		if _, err := RunForTest(t, nil, "load "+fib+" "+bad); err == nil || !strings.Contains(err.Error(), "fib.pb.gz") {
			t.Errorf("load %s: error %v, want one naming the file", bad, err)
		}
	}
}

// TestTreeBundle checks tree's JSON rows against analysis.TreeRows and that
// the HTML and text forms show every row.
func TestTreeBundle(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	rec, err := RunForTest(t, s, "load demo:profvis-toy as toy\ntree toy depth=4 min=40")
	if err != nil {
		t.Fatal(err)
	}
	b := rec.Bundles()
	bundle := b[len(b)-1]
	rows := analysis.TreeRows(s.Get("toy").Tree(), analysis.TreeOptions{Depth: 4, Min: 40})
	js := bundle["application/json"].(map[string]any)["rows"].([]map[string]any)
	if len(js) != len(rows) {
		t.Fatalf("tree JSON has %d rows, want %d", len(js), len(rows))
	}
	for i, r := range rows {
		if js[i]["name"] != r.Name || js[i]["total"] != r.Total || js[i]["depth"] != r.Depth {
			t.Errorf("tree JSON row %d = %v, want %+v", i, js[i], r)
		}
		for _, mime := range []string{"text/plain", "text/html"} {
			if name := strings.TrimPrefix(r.Name, "… "); !strings.Contains(bundle[mime].(string), name) {
				t.Errorf("tree %s lacks row %q", mime, r.Name)
			}
		}
	}
}
