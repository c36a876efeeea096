package analysis

import (
	"encoding/json"
	"os"
	"testing"
)

// The JSON loaders against their floor: decoding the same bytes with
// encoding/json into the loader's own structs, without building a profile.
// Inputs are the largest V8 and Chrome files of the corpus (sucrase, 1 MB,
// 17,138 samples; Lighthouse's trace, 571 KB, 50,294 samples).

const (
	benchSucrase    = "speedscope/sample/profiles/Chrome/65/sucrase.cpuprofile"
	benchLighthouse = "lighthouse/core/test/fixtures/traces/cpu-profiler-m86.trace.json"
)

func benchRead(b *testing.B, rel string) []byte {
	data, err := os.ReadFile(corpusFile(b, rel))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	return data
}

func BenchmarkLoadV8(b *testing.B) {
	data := benchRead(b, benchSucrase)
	for b.Loop() {
		if _, err := parseV8("sucrase", data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeV8Floor(b *testing.B) {
	data := benchRead(b, benchSucrase)
	for b.Loop() {
		var p v8Profile
		if err := json.Unmarshal(data, &p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadChrome(b *testing.B) {
	data := benchRead(b, benchLighthouse)
	for b.Loop() {
		if _, err := parseChrome("lighthouse", data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeChromeFloor(b *testing.B) {
	data := benchRead(b, benchLighthouse)
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
