package analysis

import (
	"errors"
	"math/rand"
	"os"
	"strings"
	"testing"
)

// jsonSeeds are the inputs of the V8, Chrome and speedscope loaders.
var jsonSeeds = []struct{ format, file string }{
	{"v8", "testdata/chrome65-simple.cpuprofile"},
	{"v8", "testdata/node10-example.cpuprofile"},
	{"chrome", "testdata/chrome141-no-arg-data.json"},
	{"speedscope", "testdata/speedscope-two-sampled.json"},
	{"speedscope", "testdata/speedscope-evented.json"},
	{"speedscope", "testdata/speedscope-invalid-incomplete-trace.json"},
}

// checkLoad parses data as format and checks the result: an error that names
// the file and says where (a byte offset or a JSON path), or a profile whose
// tree can be built and whose timed samples are in order.
func checkLoad(t *testing.T, format, name string, data []byte) {
	t.Helper()
	p, err := Parse(name, data, LoadOptions{Format: format})
	if err != nil {
		var se *SyntaxError
		if !errors.As(err, &se) || se.File != name {
			t.Fatalf("Parse(%s) error %v: want a SyntaxError naming the file", name, err)
		}
		// Where: a byte offset, a JSON path ("profiles[0]: events[6]"), a
		// trace profile ("profile 0x7b"), or the whole file ("expected ...").
		if se.Offset < 0 && !strings.ContainsAny(se.Msg, "[") && !strings.HasPrefix(se.Msg, "expected") && !strings.HasPrefix(se.Msg, "profile ") {
			t.Fatalf("Parse(%s) error %v: want a byte offset or a JSON path", name, err)
		}
		return
	}
	tree := NewTree(p)
	for v := range p.ValueTypes {
		var roots int64
		for _, r := range tree.Roots {
			roots += tree.Total[v][r]
		}
		if roots+tree.Unrooted[v] != p.Total(v) {
			t.Fatalf("Parse(%s): tree total %d + unrooted %d != profile total %d", name, roots, tree.Unrooted[v], p.Total(v))
		}
	}
	for i := 1; p.Timed && i < len(p.Samples); i++ {
		if p.Samples[i].Time < p.Samples[i-1].Time {
			t.Fatalf("Parse(%s): timed samples out of order at %d", name, i)
		}
	}
}

// TestJSONBadInput feeds truncated and bit-flipped copies of every input to
// its loader: each gives an error with a place, or a consistent profile.
func TestJSONBadInput(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, s := range jsonSeeds {
		data, err := os.ReadFile(s.file)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(s.file, func(t *testing.T) {
			for k := 0; k < 20; k++ {
				cut := len(data) * k / 20
				_, err := Parse("cut.json", data[:cut], LoadOptions{Format: s.format})
				if err == nil {
					t.Errorf("Parse of the first %d bytes succeeded, want an error", cut)
				}
				checkLoad(t, s.format, "cut.json", data[:cut])
			}
			for k := 0; k < 200; k++ {
				b := append([]byte(nil), data...)
				b[rng.Intn(len(b))] ^= 1 << rng.Intn(8)
				checkLoad(t, s.format, "flip.json", b)
			}
		})
	}
}

func fuzzJSONLoader(f *testing.F, format string) {
	for _, s := range jsonSeeds {
		if s.format == format {
			data, err := os.ReadFile(s.file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte(placementProfile))
	f.Add([]byte(twoThreads))
	f.Add([]byte(spanTrace))
	f.Add([]byte(heapProfile))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLoad(t, format, "fuzz.json", data)
	})
}

func FuzzV8(f *testing.F)         { fuzzJSONLoader(f, "v8") }
func FuzzChrome(f *testing.F)     { fuzzJSONLoader(f, "chrome") }
func FuzzSpeedscope(f *testing.F) { fuzzJSONLoader(f, "speedscope") }

// TestJSONSniff checks format detection on shapes whose distinctive keys
// come late or are optional.
func TestJSONSniff(t *testing.T) {
	pad := strings.Repeat("1,", 3000) + "1"
	for _, c := range []struct{ format, data string }{
		{"v8", `{"startTime":0,"endTime":1,"timeDeltas":[` + pad + `],"samples":[],"nodes":[]}`},
		{"v8", placementProfile},
		{"chrome", twoThreads},
		{"chrome", `{"metadata":{},"traceEvents":[{"name":"CpuProfile","ph":"I","pid":1,"tid":1,"ts":0,"args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"a"}}],"samples":[1],"timeDeltas":[1]}}}}]}`},
		{"speedscope", `{"shared":{"frames":[{"name":"A"}]},"profiles":[{"type":"sampled","unit":"none","samples":[[0]],"weights":[1]}]}`},
		{"speedscope", `{"shared":{"frames":[` + strings.Repeat(`{"name":"A"},`, 400) + `{"name":"A"}]},"profiles":[{"type":"sampled","unit":"none","samples":[[0]],"weights":[1]}]}`},
	} {
		p, err := Parse("sniff.json", []byte(c.data), LoadOptions{})
		if err != nil {
			// The padded V8 profile has more deltas than samples: detection is
			// what is checked, so its loader's error is fine.
			if c.format == "v8" && strings.Contains(err.Error(), "time delta") {
				continue
			}
			t.Errorf("Parse(%.40s…) error %v, want format %s", c.data, err, c.format)
			continue
		}
		if p.Format != c.format {
			t.Errorf("Parse(%.40s…) format = %s, want %s", c.data, p.Format, c.format)
		}
	}
}
