package v8

import (
	"encoding/json"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/cpuprofile"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// The loader against its floor: decoding the same bytes with encoding/json
// into the loader's own structs, without building a profile. The input is
// the largest V8 file of the corpus (sucrase, 1 MB, 17,138 samples).

const benchSucrase = "speedscope/sample/profiles/Chrome/65/sucrase.cpuprofile"

func BenchmarkLoadV8(b *testing.B) {
	data := testprof.BenchInput(b, benchSucrase)
	for b.Loop() {
		if _, err := parse(&analysis.Input{Name: "sucrase", Data: data}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeV8Floor(b *testing.B) {
	data := testprof.BenchInput(b, benchSucrase)
	for b.Loop() {
		var p cpuprofile.Profile
		if err := json.Unmarshal(data, &p); err != nil {
			b.Fatal(err)
		}
	}
}
