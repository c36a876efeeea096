package commands

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/avid"
	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/phase"
)

// AVID (seed 001): what the commands mapping, entities, cels, sample and
// compare-sampling share, and the mapping as a granularity (level
// using=MAPPING).

// maxMappingFile bounds the bytes read from a mapping file.
const maxMappingFile = 1 << 20

var mappingOpt = kernel.Option{Name: "mapping", Kind: kernel.KindFile,
	Doc: "the entities: a mapping defined with `mapping NAME <<`, or a file of `ENTITY class PATTERN` lines; default: one entity per package (top-level name)"}

// mappingsKey keeps the mappings the mapping command defined, by name.
var mappingsKey = kernel.NewKey[map[string]*avid.Mapping]("mappings")

// mappings returns the session's mappings by name.
func mappings(s *kernel.Session) map[string]*avid.Mapping {
	m := mappingsKey.Get(s)
	if m == nil {
		m = map[string]*avid.Mapping{}
		mappingsKey.Set(s, m)
	}
	return m
}

// celsKey keeps a profile's last cels player, as an HTML page, for export.
var celsKey = kernel.NewKey[[]byte]("cels")

// entityMap returns the entities of the call's mapping= over p, and the
// mapping's name; without mapping=, one entity per package.
func entityMap(c *kernel.Call, p *analysis.Profile) (*avid.EntityMap, string, error) {
	if !c.Has("mapping") {
		return avid.PackageMap(p), "package", nil
	}
	m, err := mappingOption(c, "mapping")
	if err != nil {
		return nil, "", err
	}
	return m.Apply(p), m.Name, nil
}

// mappingOption returns the mapping option opt names: one defined in the
// session, else a file.
func mappingOption(c *kernel.Call, opt string) (*avid.Mapping, error) {
	name := c.Opt(opt)
	if name == "" {
		return nil, c.Usagef("%s= is needed: name a mapping defined with `mapping NAME <<` … `end`, or a file of `ENTITY class PATTERN` lines", opt)
	}
	if m := mappings(c.Session)[name]; m != nil {
		return m, nil
	}
	text, err := readMappingFile(c.Path(name))
	if err != nil {
		return nil, fmt.Errorf("%s=%s: no mapping of that name in the session, and %w", opt, name, err)
	}
	return avid.ParseMapping(name, text)
}

// readMappingFile reads a regular file of at most maxMappingFile bytes.
func readMappingFile(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("the file cannot be read: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("the file is %s, not a regular file", fileKind(fi.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("the file cannot be read: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxMappingFile+1))
	if err != nil {
		return "", fmt.Errorf("the file cannot be read: %w", err)
	}
	if len(data) > maxMappingFile {
		return "", fmt.Errorf("the file is larger than %d bytes: a mapping is a few lines", maxMappingFile)
	}
	return string(data), nil
}

// mappingNotes says where the calls come from and which lines of the
// mapping matched no frame.
func mappingNotes(subject string, src analysis.CountSource, em *avid.EntityMap) string {
	var b strings.Builder
	switch src {
	case analysis.CountEvents:
		b.WriteString("calls: exact, from the entry events of the recording")
	case analysis.CountStackDiffs:
		b.WriteString("calls: recovered by diffing consecutive stacks of each thread (stack-diffs), a lower bound: " +
			"a function called again before the next sample counts once")
	default:
		b.WriteString("calls: none: " + subject + " is neither an evented recording nor samples in time order, so only values are shown")
	}
	if len(em.Unused) > 0 {
		b.WriteString("\n" + unusedNote(em))
	}
	return b.String()
}

// unusedNote names the mapping lines that match no frame: a note, not an
// error (the mapping may be meant for other profiles too).
func unusedNote(em *avid.EntityMap) string {
	if len(em.Unused) == 1 {
		return "note: 1 mapping line matches no frame: " + em.Unused[0]
	}
	return fmt.Sprintf("note: %d mapping lines match no frame: %s", len(em.Unused), strings.Join(em.Unused, "; "))
}

// entityTables returns the entities and the arcs of e as tables, and the
// JSON document of the entities command.
func entityTables(e *avid.Entities) (*kernel.Table, *kernel.Table, map[string]any) {
	unit := e.ValueType.Unit
	cols := []string{"entity", "self", "self %", "total", "total %", "calls in"}
	if e.Alloc != nil {
		cols = append(cols, "allocations ("+e.AllocType.Type+")")
	}
	if e.Objects != nil {
		cols = append(cols, "objects allocated", "objects freed")
	}
	ents := &kernel.Table{Columns: cols}
	var docEnts []map[string]any
	for i, name := range e.Map.Names {
		if name == avid.Other && e.Total[i] == 0 && e.CallsIn[i] == 0 && (e.Objects == nil || e.Objects.Alloc[i]+e.Objects.Free[i] == 0) {
			continue
		}
		row := []any{name, kernel.ValueCell(e.Self[i], unit), kernel.PercentCell(e.Self[i], e.Grand), kernel.ValueCell(e.Total[i], unit),
			kernel.PercentCell(e.Total[i], e.Grand), e.CallsIn[i]}
		obj := map[string]any{"name": name, "self": e.Self[i], "total": e.Total[i], "calls_in": e.CallsIn[i]}
		if e.Alloc != nil {
			row = append(row, kernel.ValueCell(e.Alloc[i], e.AllocType.Unit))
			obj["alloc"] = e.Alloc[i]
		}
		if o := e.Objects; o != nil {
			row = append(row, o.Alloc[i], o.Free[i])
			obj["allocated"], obj["freed"] = o.Alloc[i], o.Free[i]
		}
		ents.Rows = append(ents.Rows, row)
		docEnts = append(docEnts, obj)
	}
	arcs := &kernel.Table{Columns: []string{"from", "to", "calls"}}
	docArcs := []map[string]any{}
	for _, a := range e.Arcs {
		from, to := e.Map.Names[a.From], e.Map.Names[a.To]
		arcs.Rows = append(arcs.Rows, []any{from, to, a.Calls})
		docArcs = append(docArcs, map[string]any{"from": from, "to": to, "calls": a.Calls})
	}
	doc := map[string]any{"source": string(e.Source), "unit": unit, "entities": docEnts, "arcs": docArcs}
	if e.Source == "" {
		doc["source"] = "none"
	}
	return ents, arcs, doc
}

// celsDoc is the JSON document of the cels command.
func celsDoc(cs *avid.Cels) map[string]any {
	names := cs.Map.Names
	cels := make([]map[string]any, len(cs.Cels))
	for k := range cs.Cels {
		c := &cs.Cels[k]
		stack := make([]string, len(c.Stack))
		for i, e := range c.Stack {
			stack[i] = names[e]
		}
		arcs := []map[string]any{}
		for i, a := range cs.Arcs {
			if c.Total[i] > 0 {
				arcs = append(arcs, map[string]any{"from": names[a.From], "to": names[a.To], "step": c.Step[i], "total": c.Total[i]})
			}
		}
		cels[k] = map[string]any{"start": c.Start, "end": c.End, "entries": c.Entries, "stack": stack, "arcs": arcs}
		if o := c.Objects; o != nil {
			cels[k]["allocated"], cels[k]["freed"] = byEntity(names, o.Alloc), byEntity(names, o.Free)
		}
	}
	return map[string]any{"source": string(cs.Source), "unit": cs.Unit, "cels": cels}
}

// byEntity maps the entities with a count to it.
func byEntity(names []string, counts []int64) map[string]int64 {
	m := map[string]int64{}
	for i, n := range counts {
		if n != 0 {
			m[names[i]] = n
		}
	}
	return m
}

// objectsNote says where the objects of the bars come from; "" without
// memory events.
func objectsNote(o *avid.Objects) string {
	if o == nil {
		return ""
	}
	return "\nobjects: " + string(o.Source) + " memory events: " + objectSources[o.Source] + "; an object counts to the entity of its class " +
		"(of the allocating frame where the recording names no class)"
}

// objectSources say how exact each source of memory events is.
var objectSources = map[analysis.MemorySource]string{
	analysis.MemoryTraced:     "every allocation and deallocation recorded, exact",
	analysis.MemorySampled:    "a sample of the allocations (by the recorder, or by M-1 or M-2), fewer than the objects",
	analysis.MemoryHeapDeltas: "differences of consecutive heap profiles, estimated",
}

// freeName returns name, or name2, name3... when a profile has it.
func freeName(s *kernel.Session, name string) string {
	for i, n := 2, name; ; i++ {
		if s.Get(n) == nil {
			return n
		}
		n = fmt.Sprintf("%s%d", name, i)
	}
}

// entityPhases detects the phases of t with one dimension per entity of
// em, in intervals of the given length (0: phase's default).
func entityPhases(ctx context.Context, t *analysis.Tree, em *avid.EntityMap, interval int64) (*phase.Vectors, *phase.Result, error) {
	names := make([]string, t.Len())
	for n, f := range t.Frame {
		names[n] = em.Names[em.Frame[f]]
	}
	v, err := phase.Build(ctx, t, phase.NewDims(names), phase.Options{Interval: interval, Value: t.Profile.DefaultValue})
	if err != nil {
		return nil, nil, err
	}
	r, err := phase.Detect(ctx, v, phase.DefaultParams(), nil)
	return v, r, err
}

// alignedARI is the adjusted Rand index of the phases of the full
// recording and of a thinned one, over the full recording's intervals: an
// interval's thinned phase is that of the thinned interval holding its
// middle (-1 where the thinned recording has none).
func alignedARI(full *phase.Vectors, fullR *phase.Result, thin *phase.Vectors, thinR *phase.Result) float64 {
	pred := make([]int32, len(full.Intervals))
	for i, iv := range full.Intervals {
		mid := iv.Start + (iv.End-iv.Start)/2
		k := sort.Search(len(thin.Intervals), func(k int) bool { return thin.Intervals[k].End > mid })
		pred[i] = -1
		if k < len(thin.Intervals) && thin.Intervals[k].Start <= mid {
			pred[i] = thinR.Of[k]
		}
	}
	return phase.ARI(fullR.Of, pred)
}

// levelUsing makes the mapping named by using= the granularity of the
// call's profile and shows the view.
func levelUsing(c *kernel.Call) error {
	if c.Arg(0) != "" || c.Has("where") {
		return c.Usagef("using= sets every frame to its entity: give no N and no where=")
	}
	m, err := mappingOption(c, "using")
	if err != nil {
		return err
	}
	l := c.Profile()
	l.UseMapping(m)
	note := fmt.Sprintf("every frame compacted to its entity by the mapping %s", m.Name)
	if em := m.Apply(l.Profile); len(em.Unused) > 0 {
		note += "\n" + unusedNote(em)
	}
	return showNew(c, l, func(*compaction.View) string { return note })
}

// featuresKey keeps the features the features command defined, by name.
var featuresKey = kernel.NewKey[map[string]*avid.Features]("features")

func sessionFeatures(s *kernel.Session) map[string]*avid.Features {
	m := featuresKey.Get(s)
	if m == nil {
		m = map[string]*avid.Features{}
		featuresKey.Set(s, m)
	}
	return m
}

// featuresOption returns the features opt names: the session's, else a
// file's.
func featuresOption(c *kernel.Call, opt string) (*avid.Features, error) {
	name := c.Opt(opt)
	if fs := sessionFeatures(c.Session)[name]; fs != nil {
		return fs, nil
	}
	text, err := readMappingFile(c.Path(name))
	if err != nil {
		return nil, fmt.Errorf("%s=%s: no features of that name in the session, and %w", opt, name, err)
	}
	return avid.ParseFeatures(name, text)
}

// celStep reads step=: a number of entries or a duration; without it, the
// entries of t in about defaultCels cels.
func celStep(c *kernel.Call, t *analysis.Tree) (avid.CelStep, error) {
	if !c.Has("step") {
		counts, ok := analysis.EntryCounts(t)
		if !ok {
			return avid.CelStep{}, fmt.Errorf("cels %s: %w", c.Subject(), avid.ErrNoTimeOrder)
		}
		var entries int64
		for _, n := range counts.Calls {
			entries += n
		}
		return avid.CelStep{Entries: max(1, (entries+defaultCels-1)/defaultCels)}, nil
	}
	v := c.Opt("step")
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
		return avid.CelStep{Entries: n}, nil
	}
	if d, err := kernel.ParseDuration(v); err == nil && d > 0 {
		return avid.CelStep{Period: int64(d)}, nil
	}
	return avid.CelStep{}, c.Usagef("step=%s: write a number of entries (step=100) or a duration (step=10ms), above 0", v)
}
