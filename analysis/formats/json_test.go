package formats

import (
	"context"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// jsonSeeds are the test inputs of the V8, Chrome and speedscope loaders.
var jsonSeeds = []struct{ format, file string }{
	{"v8", "../v8/testdata/chrome65-simple.cpuprofile"},
	{"v8", "../v8/testdata/node10-example.cpuprofile"},
	{"chrome", "../chrome/testdata/chrome141-no-arg-data.json"},
	{"speedscope", "../speedscope/testdata/speedscope-two-sampled.json"},
	{"speedscope", "../speedscope/testdata/speedscope-evented.json"},
	{"speedscope", "../speedscope/testdata/speedscope-invalid-incomplete-trace.json"},
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
				_, err := analysis.Parse(context.Background(), "cut.json", data[:cut], analysis.LoadOptions{Format: s.format})
				if err == nil {
					t.Errorf("Parse of the first %d bytes succeeded, want an error", cut)
				}
				testprof.CheckParse(t, s.format, "cut.json", data[:cut])
			}
			for k := 0; k < 200; k++ {
				b := append([]byte(nil), data...)
				b[rng.Intn(len(b))] ^= 1 << rng.Intn(8)
				testprof.CheckParse(t, s.format, "flip.json", b)
			}
		})
	}
}

// TestJSONSniff checks format detection on shapes whose distinctive keys
// come late or are optional.
func TestJSONSniff(t *testing.T) {
	pad := strings.Repeat("1,", 3000) + "1"
	for _, c := range []struct{ format, data string }{
		{"v8", `{"startTime":0,"endTime":1,"timeDeltas":[` + pad + `],"samples":[],"nodes":[]}`},
		{"v8", `{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":""},"children":[2]},{"id":2,"callFrame":{"functionName":"f","url":"a.js"}}],"samples":[2],"timeDeltas":[1]}`},
		{"chrome", `[{"name":"CpuProfile","ph":"I","pid":1,"tid":1,"ts":0,"args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"a"}}],"samples":[1],"timeDeltas":[1]}}}}]`},
		{"chrome", `{"metadata":{},"traceEvents":[{"name":"CpuProfile","ph":"I","pid":1,"tid":1,"ts":0,"args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"a"}}],"samples":[1],"timeDeltas":[1]}}}}]}`},
		{"speedscope", `{"shared":{"frames":[{"name":"A"}]},"profiles":[{"type":"sampled","unit":"none","samples":[[0]],"weights":[1]}]}`},
		{"speedscope", `{"shared":{"frames":[` + strings.Repeat(`{"name":"A"},`, 400) + `{"name":"A"}]},"profiles":[{"type":"sampled","unit":"none","samples":[[0]],"weights":[1]}]}`},
	} {
		p, err := analysis.Parse(context.Background(), "sniff.json", []byte(c.data), analysis.LoadOptions{})
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
