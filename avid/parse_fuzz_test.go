package avid

import (
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/analysistest"
)

// FuzzParseControl: a control is an error naming its file and line, or
// ranges in time order that do not overlap, which thin a recording or give
// an error, never a panic.
func FuzzParseControl(f *testing.F) {
	f.Add("c2=50 from 10ms to 200ms\nm3=1000 from 200ms\ndefault trace\n")
	f.Add("c1=2 m1=3 from start to 5ns\n# c\nc3=1ns m2=2ns from 5ns to end\ndefault nothing")
	f.Add("m3=2ns to 1h\nc9=1")
	p := analysistest.Build(allocShop)
	f.Fuzz(func(t *testing.T, text string) {
		c, err := ParseControl("fuzz", text)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz: ") {
				t.Fatalf("error %q does not name the control", err)
			}
			return
		}
		for i, r := range c.Ranges {
			if r.From >= r.To || i > 0 && c.Ranges[i-1].To > r.From {
				t.Fatalf("ranges out of order or overlapping: %+v", c.Ranges)
			}
		}
		for _, r := range c.Ranges {
			if r.Kind == "C-3" && r.Every < 1000 || r.Memory == "M-2" && r.MemoryEvery < 1 {
				return // a period too short to thin in a fuzz run
			}
		}
		if c.Default.Kind == "C-3" && c.Default.Every < 1000 {
			return
		}
		if th, err := Thin(p, c); err == nil && th.Records < 0 {
			t.Fatalf("negative size %d", th.Records)
		}
	})
}

// FuzzParseFeatures: features are an error naming their file and line, or
// features that a recording judges, never a panic.
func FuzzParseFeatures(f *testing.F) {
	f.Add("F-1 at call 1 UI->Core: Core->DB >= 1, allocated JDK > 0\nF-2 from 10% to end: freed Core = 1")
	f.Add("X at start: A->B < 3")
	p := analysistest.Build(allocShop)
	em := shopMap(f, analysis.NewTree(p))
	f.Fuzz(func(t *testing.T, text string) {
		fs, err := ParseFeatures("fuzz", text)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz: ") {
				t.Fatalf("error %q does not name the features", err)
			}
			return
		}
		for _, v := range Judge(p, em, fs, RunSpan(p)) {
			if v.Level != Evident && v.Level != Partial && v.Level != NotEvident || v.Missing == "" && len(v.Counts) != len(v.Feature.Conditions) {
				t.Fatalf("verdict %+v", v)
			}
		}
	})
}
