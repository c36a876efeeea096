package chrome

import (
	"encoding/json"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// The loader against its floor: decoding the same bytes with encoding/json
// into the loader's own structs, without building a profile. The input is
// the largest Chrome trace of the corpus (Lighthouse's, 571 KB, 50,294
// samples).

const benchLighthouse = "lighthouse/core/test/fixtures/traces/cpu-profiler-m86.trace.json"

func BenchmarkLoadChrome(b *testing.B) {
	data := testprof.BenchInput(b, benchLighthouse)
	for b.Loop() {
		if _, err := parse(&analysis.Input{Name: "lighthouse", Data: data}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeChromeFloor(b *testing.B) {
	data := testprof.BenchInput(b, benchLighthouse)
	for b.Loop() {
		var f traceFile
		if err := json.Unmarshal(data, &f); err != nil {
			b.Fatal(err)
		}
		for _, e := range f.TraceEvents {
			var a traceArgs
			if e.Name == "ProfileChunk" && json.Unmarshal(e.Args, &a) != nil {
				b.Fatal("bad args")
			}
		}
	}
}
