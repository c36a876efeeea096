package cpuprofile

import (
	"fmt"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/jsonprof"
)

// pseudo are V8's pseudo-frames and what their time is.
var pseudo = []struct{ name, means string }{
	{"(idle)", "V8 ran no JavaScript: the thread waited"},
	{"(program)", "native code of the engine and the embedder, outside JavaScript"},
	{"(garbage collector)", "garbage collection"},
}

// Note notes the share of the wall time of each V8 pseudo-frame the samples
// out (converted by Convert into b) spend in as leaves, when any: they are
// rows of top like any function, and their time is part of the total.
func Note(b *analysis.Builder, out []jsonprof.Sample) {
	p := b.Profile()
	by := map[string]int64{}
	var total int64
	for _, s := range out {
		total += s.Weight
		if st := p.Stacks.At(s.Stack); len(st) > 0 {
			by[p.Frames[st[len(st)-1]].Name] += s.Weight
		}
	}
	var parts []string
	for _, ps := range pseudo {
		if w, ok := by[ps.name]; ok && total > 0 {
			parts = append(parts, fmt.Sprintf("%s %.1f%% (%s)", ps.name, 100*float64(w)/float64(total), ps.means))
		}
	}
	if len(parts) > 0 {
		b.Note("of the wall time, V8's pseudo-frames take " + strings.Join(parts, ", ") +
			"; they are roots as the file has them, and part of every total (ignore='^\\(idle\\)$' leaves idle time out)")
	}
}
