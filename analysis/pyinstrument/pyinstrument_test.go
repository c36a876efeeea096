package pyinstrument

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestGoldens: a session's frame records become timed samples (their
// attributes dropped: one frame per function whatever line ran), a JSON
// renderer tree one sample per node's own time.
func TestGoldens(t *testing.T) {
	testprof.Goldens(t, "testdata/small.pyisession", "testdata/small-render.json")
}

// TestHTMLTree checks the HTML renderer data of pyinstrument's own demo
// against the tree read directly as JSON: every node's own time (its time
// less its children's; a "[self]" node's time is its parent's), summed per
// function, and the total, the root's time.
func TestHTMLTree(t *testing.T) {
	path := "testdata/wikipedia_article_word_count.json.gz"
	p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	zr, _ := gzip.NewReader(bytes.NewReader(raw))
	data, _ := io.ReadAll(zr)
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{} // function name → own seconds
	nodes := 0
	var walk func(n map[string]any, parent string)
	walk = func(n map[string]any, parent string) {
		nodes++
		id := n["identifier"].(string)
		own := n["time"].(float64)
		if id == "[self]" {
			want[parent] += own
			return
		}
		fn := strings.Split(id, "\x00")[0]
		for _, c := range n["children"].([]any) {
			own -= c.(map[string]any)["time"].(float64)
			walk(c.(map[string]any), fn)
		}
		want[fn] += max(own, 0)
	}
	tree := doc["frame_tree"].(map[string]any)
	walk(tree, "")
	got := map[string]float64{}
	for i := range p.Samples {
		st := p.Stacks.At(p.Samples[i].Stack)
		name, _, _ := strings.Cut(p.Frames[st[len(st)-1]].Name, " (")
		got[name] += float64(p.Value(&p.Samples[i], 0)) / 1e9
	}
	for fn, w := range want {
		if math.Abs(got[fn]-w) > 1e-6 {
			t.Errorf("%s: own time %.6fs, want %.6fs", fn, got[fn], w)
		}
	}
	// The file's times have six decimals, so a node's children can add up
	// to a microsecond more than the node: the total is the root's time to
	// within a microsecond per node.
	if root := tree["time"].(float64); math.Abs(float64(p.Total(0))/1e9-root) > float64(nodes)*1e-6 {
		t.Errorf("total %d ns, want the root's %.6fs (±%d µs)", p.Total(0), root, nodes)
	}
	if d := doc["session"].(map[string]any)["duration"].(float64); math.Abs(p.Duration.Seconds()-d) > 1e-9 {
		t.Errorf("duration %v, want the session's %vs", p.Duration, d)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"record", `{"frame_records": [[["a\u0000b\u00001"]]]}`, "expected a pyinstrument session or renderer object: expected a frame record"},
		{"time", `{"frame_records": [[["a\u0000b\u00001"], -1]]}`, "frame_records[0]: expected a time in seconds, found -1"},
		{"none", `{"sample_count": 3, "root_frame": null}`, `expected "frame_records", "frame_tree" or "root_frame"`},
		{"json", `{"frame_tree": {"identifier": 3}}`, "byte 31: expected string at \"frame_tree.identifier\", found JSON number"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := analysis.Parse(context.Background(), c.name, []byte(c.data), analysis.LoadOptions{Format: "pyinstrument"})
			if err == nil || !strings.HasPrefix(err.Error(), c.name+": "+c.want) {
				t.Errorf("error %v, want %q after the file's name", err, c.want)
			}
			testprof.CheckError(t, c.name, err)
		})
	}
}

// A tree without a session's facts has no start, no duration and no
// session note; a start time of 0 is none.
func TestNoSession(t *testing.T) {
	p, err := analysis.Parse(context.Background(), "t.json", []byte(`{"start_time": 0, "root_frame": {"function": "f", "file_path": "a.py", "line_no": 1, "time": 0.5, "children": []}, "sample_count": 0}`), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Start.IsZero() || p.Duration != 0 || len(p.Notes) != 1 || p.Total(0) != 5e8 {
		t.Errorf("start %v, duration %v, notes %q, total %d; want none, 0, the renderer note only, 0.5 s", p.Start, p.Duration, p.Notes, p.Total(0))
	}
}
