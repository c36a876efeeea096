package v8

import (
	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/cpuprofile"
)

// V8 sampling heap profiles (.heapprofile, DevTools "Allocation sampling",
// the inspector's HeapProfiler.getSamplingProfile): a "head" tree of call
// frames, each with the bytes allocated there (selfSize) and still live
// when the profile was taken. Each node with a selfSize becomes one sample
// of value type space/bytes whose stack is the node's path; the "(root)"
// pseudo-frame is dropped as in CPU profiles. Heap profiles have no times.

func parseHeap(in *analysis.Input, p *cpuprofile.Profile) *analysis.Profile {
	b := in.NewBuilder(analysis.ValueType{Type: "space", Unit: "bytes"})
	b.Profile().Lang = analysis.LangJS
	type item struct {
		n     *cpuprofile.OldNode
		depth int
	}
	var frames []int32
	work := []item{{p.Head, 0}}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		frames = frames[:it.depth]
		if it.n == nil {
			continue
		}
		depth := it.depth
		if f := it.n.HeapFrame; f != nil && f.FunctionName != "(root)" {
			frames = append(frames, b.Frame(cpuprofile.Frame(f)))
			depth++
		}
		if s := int64(it.n.SelfSize); s > 0 {
			b.Add(b.Stack(frames), []int64{s}, 0, false, "", nil)
		}
		for i := len(it.n.Children) - 1; i >= 0; i-- {
			work = append(work, item{it.n.Children[i], depth})
		}
	}
	return b.Finish()
}
