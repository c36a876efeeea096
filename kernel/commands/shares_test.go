package commands

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/kerneltest"
)

// randomCPUProfile writes a V8 .cpuprofile of a random call tree of n
// functions (some of them V8's (program) and (garbage collector), children
// of the root as the file puts them) and samples of random nodes, some of
// them (idle), each 1 to 3 ms apart; it returns its path and the total
// idle time in ns.
func randomCPUProfile(t *testing.T, r *rand.Rand, n int) (string, int64) {
	t.Helper()
	type frame struct {
		FunctionName string `json:"functionName"`
		URL          string `json:"url"`
	}
	type node struct {
		ID        int   `json:"id"`
		CallFrame frame `json:"callFrame"`
		Children  []int `json:"children,omitempty"`
	}
	nodes := []node{{ID: 1, CallFrame: frame{FunctionName: "(root)"}}, {ID: 2, CallFrame: frame{FunctionName: "(idle)"}},
		{ID: 3, CallFrame: frame{FunctionName: "(program)"}}, {ID: 4, CallFrame: frame{FunctionName: "(garbage collector)"}}}
	nodes[0].Children = []int{2, 3, 4}
	for i := range n {
		id, parent := len(nodes)+1, 1
		if i > 0 && r.IntN(4) > 0 {
			parent = 5 + r.IntN(len(nodes)-4)
		}
		nodes = append(nodes, node{ID: id, CallFrame: frame{FunctionName: fmt.Sprintf("f%d", r.IntN(n)), URL: fmt.Sprintf("m%d.js", r.IntN(3))}})
		nodes[parent-1].Children = append(nodes[parent-1].Children, id)
	}
	var samples, deltas []int
	var idle int64
	for range 200 + r.IntN(300) {
		id, d := 1+r.IntN(len(nodes)), 1000+r.IntN(2000)
		if id == 1 {
			id = 2
		}
		samples, deltas = append(samples, id), append(deltas, d)
	}
	end := 0
	for k, id := range samples {
		end += deltas[k]
		if id == 2 && k+1 < len(samples) {
			idle += int64(deltas[k+1]) * 1000 // a sample lasts until the next one
		}
	}
	data, err := json.Marshal(map[string]any{"nodes": nodes, "startTime": 0, "endTime": end, "samples": samples, "timeDeltas": deltas})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "random.cpuprofile")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, idle
}

// TestSharesOneTotal: in one cell, top, tree, sandwich, fit and flame
// give every percentage of weight against the same total, the profile's
// total before filters (what top calls its total, as pprof does), on
// random V8 profiles with idle samples, with and without filters; and
// each says how much of it is in samples with no frames, which no row
// shows.
func TestSharesOneTotal(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 28))
	title := regexp.MustCompile(`^<svg[^\n]*\n(?:[^\n]*\n)*?<text [^>]*>([^<]*)</text>`)
	pct := regexp.MustCompile(`\(([0-9.]+)% of ([^)]+)\)`)
	for trial := range 12 {
		path, _ := randomCPUProfile(t, r, 5+r.IntN(30))
		filter := []string{"", "ignore=f1", "focus=f2", "hide=f3"}[trial%4]
		cell := "top n=0\ntree min=0\nsandwich\nfit nodes=4\nflame"
		if filter != "" {
			cell = "filter " + filter + "\n" + cell
		}
		s := kernel.NewSession(t.TempDir(), testTable())
		rec, err := RunForTest(t, s, "load "+path+" as p\n"+cell)
		if err != nil {
			t.Fatal(err)
		}
		l := s.Get("p")
		total := l.Profile.ReportTotal(l.Value)
		unit := l.Profile.ValueTypes[l.Value].Unit
		var totals []string // "where: total"
		var texts []string
		for _, b := range rec.Bundles() {
			text, _ := b["text/plain"].(string)
			texts = append(texts, text)
			switch j := b["application/json"].(type) {
			case map[string]any: // top and tree
				if x, ok := j["total"].(int64); ok {
					totals = append(totals, fmt.Sprintf("%s json: %d", strings.SplitN(text, "\n", 2)[0], x))
				}
			case []map[string]any: // tables: a weight and its share of the profile
				for _, row := range j {
					if f, ok := row["profile%"].(float64); ok && f != 0 {
						totals = append(totals, fmt.Sprintf("sandwich %v: %.0f", row["name"], float64(row["total"].(int64))/f))
					}
				}
			}
			if svg, ok := kerneltest.SVG(b); ok {
				if m := title.FindStringSubmatch(svg); m != nil {
					for _, p := range pct.FindAllStringSubmatch(m[1], -1) {
						totals = append(totals, "picture title: "+p[2])
					}
				}
			}
		}
		if kinds := strings.Count(strings.Join(totals, "\n"), "json: ") + min(strings.Count(strings.Join(totals, "\n"), "sandwich "), 1) +
			min(strings.Count(strings.Join(totals, "\n"), "picture title"), 1); kinds < 3 {
			t.Fatalf("trial %d: the cell gave %d of top's, tree's, sandwich's and a picture's totals: %q", trial, kinds, totals)
		}
		all := strings.Join(texts, "\n")
		for _, got := range totals {
			at := strings.LastIndex(got, ": ")
			want := fmt.Sprint(total)
			if strings.HasPrefix(got, "picture") {
				want = analysis.FormatValue(total, unit)
			}
			if x, err := parseFloat(got[at+2:]); err == nil && strings.HasPrefix(got, "sandwich") {
				if math.Abs(x-float64(total)) > 1e-6*float64(total) {
					t.Errorf("trial %d %s: %s, want %d", trial, filter, got, total)
				}
				continue
			}
			if got[at+2:] != want {
				t.Errorf("trial %d %s: %s, want %s", trial, filter, got, want)
			}
		}
		for _, want := range []string{
			"of " + analysis.FormatValue(total, unit) + " total",                                // top
			"percentages are of " + analysis.FormatValue(total, unit) + ", the profile's total", // tree
			"profile% of " + analysis.FormatValue(total, unit) + ", the profile's total",        // sandwich
			"of " + analysis.FormatValue(total, unit) + " (",                                    // fit
		} {
			if !strings.Contains(all, want) {
				t.Errorf("trial %d %s: no output says %q:\n%s", trial, filter, want, all)
			}
		}
		if rest := l.Tree().Unrooted[l.Value]; rest > 0 && strings.Count(all, "is in samples with no frames") < 5 {
			t.Errorf("trial %d %s: %s in samples with no frames, said %d times (want by top, tree, sandwich, fit and flame):\n%s",
				trial, filter, analysis.FormatValue(rest, unit), strings.Count(all, "is in samples with no frames"), all)
		}
	}
}

func parseFloat(s string) (float64, error) {
	var x float64
	_, err := fmt.Sscan(s, &x)
	return x, err
}

// TestSharesOfADelta: in a goroutine delta (net/http/pprof's ?seconds=2;
// `go tool pprof -raw` lists its samples: +13 +1 +1 and -14 -1 -1 -1), the
// shares are of 32, pprof's total, which is not the profile's total: that
// is the net change, -2. top, tree and sandwich say what 32 is, with the
// increases and the decreases, and none calls it the profile's total.
func TestSharesOfADelta(t *testing.T) {
	path, err := filepath.Abs("../../analysis/formats/testdata/goroutine-delta.pb.gz")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := RunForTest(t, nil, "load "+path+" as d\ntop\ntree\nsandwich time.Sleep")
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, b := range rec.Bundles() {
		text, _ := b["text/plain"].(string)
		all = append(all, text)
	}
	const what = "of 32 before filters: the sum of the profile's increases (15) and decreases (17) in goroutine, whose net change is -2"
	for _, want := range []string{
		"d: showing 12 of 12 functions; -2 (-6.2%) " + what, // top
		"d: percentages are " + what,                        // tree
		"profile% " + what,                                  // sandwich
	} {
		if !strings.Contains(strings.Join(all, "\n"), want) {
			t.Errorf("no output says %q:\n%s", want, strings.Join(all, "\n"))
		}
	}
	for _, wrong := range []string{"32 total", "the profile's total goroutine"} {
		if strings.Contains(strings.Join(all, "\n"), wrong) {
			t.Errorf("an output says %q of the delta's 32:\n%s", wrong, strings.Join(all, "\n"))
		}
	}
}
