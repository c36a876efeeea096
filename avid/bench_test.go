package avid

import (
	"math/rand"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// benchRecording is an evented recording of about n calls on 4 threads:
// random walks over 200 functions, at most 30 deep, one event per µs.
func benchRecording(n int) *analysis.Profile {
	r := rand.New(rand.NewSource(1))
	b := analysis.NewBuilder("bench", analysis.ValueType{Type: "wall", Unit: "nanoseconds"})
	frames := make([]int32, 200)
	for i := range frames {
		frames[i] = b.Frame(analysis.Frame{Name: "pkg" + string(rune('a'+i%8)) + ".F" + string(rune('A'+i/8))})
	}
	threads := []string{"t0", "t1", "t2", "t3"}
	for i, th := range threads {
		depth, t := 0, int64(i)
		for calls := 0; calls < n/len(threads); {
			if depth > 0 && (depth >= 30 || r.Intn(2) == 0) {
				b.Exit(th, t)
				depth--
			} else {
				b.Enter(th, frames[r.Intn(len(frames))], t)
				depth++
				calls++
			}
			t += 1000
		}
	}
	return b.Finish()
}

// The AVID analyses of a recording of a million calls, against NewTree of
// the same profile as the baseline (compare with benchstat).
func BenchmarkAVID(b *testing.B) {
	p := benchRecording(1_000_000)
	t := analysis.NewTree(p)
	m, err := ParseMapping("bench", "A class pkga.*\nB class pkgb.*\nC class pkgc.*\nD class pkgd.*\n")
	if err != nil {
		b.Fatal(err)
	}
	em := m.Apply(p)
	for _, c := range []struct {
		name string
		run  func()
	}{
		{"NewTree", func() { analysis.NewTree(p) }},
		{"EntryCounts", func() { analysis.EntryCounts(t) }},
		{"NewEntities", func() { NewEntities(t, em, 0) }},
		{"NewCels", func() {
			if _, err := NewCels(t, em, CelStep{Entries: 10_000}, 0, 100); err != nil {
				b.Fatal(err)
			}
		}},
		{"ThinC2", func() {
			if _, err := Thin(p, Whole(Sampling{Kind: "C-2", Every: 100})); err != nil {
				b.Fatal(err)
			}
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.run()
			}
		})
	}
}
