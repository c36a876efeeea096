package commands

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/formats"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/store"
)

var loadCommand = &kernel.Command{
	Name:    "load",
	Summary: "Load a profile, a series of profiles (a glob), or a demo.",
	Doc: "The format is recognised from the content (pprof, gzipped or not, and its legacy text formats; " +
		"folded stacks; perf script; DTrace and macOS `sample` outputs; V8 .cpuprofile, Chrome traces, " +
		"speedscope and the Firefox Profiler's files (samply's included); Go execution traces; Java hprof and JFR; " +
		"valgrind's callgrind and cachegrind; Austin's collapsed output and pyinstrument's JSON and session files). " +
		"Trace events (B/E/X) that overlap on one thread without nesting keep their own durations: each goes on a " +
		"further track of its thread, shown as a thread of its own (\"…, track 2\"), and info says how many. " +
		"A glob such as `\"dir/*.pb.gz\"` loads a series: one profile per interval, in time order. " +
		"Without `as NAME` the name comes from the file name, made unique. " +
		"The loaded profile becomes the current one; the answer is its summary (see `info`). " +
		"The max- options bound the model, so that a small file cannot take the machine's memory; " +
		"a profile past one is refused with an error naming the option to raise. " +
		"A store URL reads a continuous-profiling store (Grafana Pyroscope, Parca): " +
		"`pyroscope://HOST:PORT/TYPE{label=\"value\"} from=T to=T` loads the merge of the matching profiles, " +
		"and with `step=D` a series of one merged profile per step, read by phases and timeline like any series. " +
		"Times are RFC 3339, Unix seconds, or relative (now-1h). `pyroscope://HOST:PORT` alone lists the store's " +
		"profile types and labels, which Tab then completes. A series that stops part way keeps the steps fetched.",
	Args: []kernel.Arg{{Name: "PATH", Doc: "file, glob, demo:NAME, or a store: pyroscope://HOST:PORT/QUERY, parca://HOST:PORT/QUERY",
		Kind: kernel.KindFile, Complete: completeStore}},
	Options: []kernel.Option{
		{Name: "format", Doc: "skip content sniffing and use this format", Default: "auto",
			Complete: func(c *kernel.Call, prefix string) []string { return append([]string{"auto"}, analysis.Formats()...) }},
		{Name: "value", Doc: "value type shown by default (e.g. cpu, alloc_space)", Kind: kernel.KindValue},
		{Name: "profile", Doc: "which recording of a file that holds several (a speedscope file's profiles): an index, a name, or all (default: the file's active one)"},
		{Name: "limit", Doc: "cap on decompressed size (e.g. 512MiB); from a store, on the bytes of all steps", Default: "2GiB"},
		{Name: "from", Doc: "a store: start of the range (RFC 3339, Unix seconds, now-1h)"},
		{Name: "to", Doc: "a store: end of the range, excluded"},
		{Name: "step", Doc: "a store: one profile per step (a series), e.g. 5m", Kind: kernel.KindDuration},
		{Name: "max-steps", Doc: "a store: cap on the steps of a series", Default: "1000"},
		{Name: "timeout", Doc: "a store: how long one request may take", Default: "30s", Kind: kernel.KindDuration},
		{Name: "max-samples", Doc: "cap on sample records (values: 4 per sample on average)", Default: "10M"},
		{Name: "max-frames", Doc: "cap on distinct frames", Default: "2M"},
		{Name: "max-depth", Doc: "cap on frames in one stack", Default: "65536"},
		{Name: "max-stack-frames", Doc: "cap on frames over all distinct stacks", Default: "20M"},
		{Name: "max-labels", Doc: "cap on label values over all samples", Default: "10M"},
	},
	Examples: []string{"load demo:profvis-toy as toy", "load demo:phasedemo as run limit=64MiB"},
	AllowAs:  true,
	Run:      runLoad,
}

func runLoad(c *kernel.Call) error {
	// Loading holds the file's bytes, the decoder's tables and the new model
	// at once, most of it garbage a moment later; a lower GC target while
	// loading keeps the peak near the live size for a few percent more CPU.
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	src := c.Arg(0)
	limit, err := kernel.ParseSize(c.Opt("limit"))
	if err != nil {
		return c.Usagef("limit=%s: %v", c.Opt("limit"), err)
	}
	opts := analysis.LoadOptions{Format: c.Opt("format"), Limit: limit, Value: c.Opt("value"), Profile: c.Opt("profile")}
	for _, m := range []struct {
		opt string
		dst *int64
	}{{"max-samples", &opts.Limits.Samples}, {"max-frames", &opts.Limits.Frames}, {"max-depth", &opts.Limits.Depth},
		{"max-stack-frames", &opts.Limits.StackFrames}, {"max-labels", &opts.Limits.Labels}} {
		if *m.dst, err = kernel.ParseCount(c.Opt(m.opt)); err != nil {
			return c.Usagef("%s=%s: %v", m.opt, c.Opt(m.opt), err)
		}
	}
	if store.IsURL(src) {
		return loadStore(c, src, opts)
	}
	for _, o := range storeOptions {
		if c.Has(o) {
			return c.Usagef("%s= reads a store: load pyroscope://HOST:PORT/QUERY or parca://HOST:PORT/QUERY", o)
		}
	}
	prog, size := loadProgress(c, src)
	p, err := loadSource(c, src, opts)
	if err != nil {
		prog.Done("loading "+src, err)
		return err
	}
	prog.Step(fmt.Sprintf("loading %s: building the call tree of %d samples…", src, len(p.Samples)))
	tree, err := analysis.NewTreeContext(c.Ctx, p)
	if err != nil {
		prog.Done("loading "+src, err)
		return err
	}
	name := c.As
	if name == "" {
		name = c.Session.UniqueName(defaultName(src))
	}
	l := kernel.NewLoaded(name, p, tree)
	c.Session.Add(l)
	prog.Done(fmt.Sprintf("loaded %s from %s: %s, %d samples, %d call-tree nodes", name, src,
		analysis.FormatValue(size, "bytes"), len(p.Samples), tree.Len()), nil)
	showInfo(c, l, "loaded "+name)
	return nil
}

// progressSize is the file size from which a load shows its progress
// (about a second of reading and building the tree).
const progressSize = 1 << 20

// loadProgress starts the progress line of loading a single file of at
// least progressSize bytes, and returns it with the size; for anything
// else a progress that shows nothing.
func loadProgress(c *kernel.Call, src string) (*kernel.Progress, int64) {
	fi, err := os.Stat(c.Path(src))
	if strings.HasPrefix(src, "demo:") || strings.ContainsAny(src, "*?[") || err != nil || fi.Size() < progressSize {
		return kernel.QuietProgress(c), 0
	}
	return kernel.StartProgress(c, fmt.Sprintf("loading %s (%s): reading…", src, analysis.FormatValue(fi.Size(), "bytes"))), fi.Size()
}

// loadSource reads a demo, a series (when src is a glob) or one file.
func loadSource(c *kernel.Call, src string, opts analysis.LoadOptions) (*analysis.Profile, error) {
	if demo, ok := strings.CutPrefix(src, "demo:"); ok {
		return formats.LoadDemo(c.Ctx, demo, opts)
	}
	path := c.Path(src)
	if strings.ContainsAny(src, "*?[") {
		p, err := analysis.LoadSeries(c.Ctx, path, opts)
		if err == nil {
			p.Source = src
		}
		return p, err
	}
	p, err := analysis.Load(c.Ctx, path, opts)
	if err != nil {
		return nil, err
	}
	p.Source = src
	return p, nil
}

// defaultName derives a profile name from a source: the file name without
// its profile extensions, kept to letters, digits, '-' and '_'.
func defaultName(src string) string {
	base := filepath.Base(strings.TrimPrefix(src, "demo:"))
	if i := strings.IndexAny(base, "*?["); i >= 0 { // a series: the text before the pattern, else the directory
		base = strings.TrimRight(base[:i], "-_.")
		if base == "" {
			base = filepath.Base(filepath.Dir(src))
		}
	}
	for {
		ext := strings.ToLower(filepath.Ext(base))
		if ext == "" || len(ext) > 12 || ext == base {
			break
		}
		base = strings.TrimSuffix(base, filepath.Ext(base))
	}
	var b strings.Builder
	for _, r := range base {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteRune('_')
		}
	}
	name := strings.Trim(b.String(), "_")
	if name == "" || (name[0] >= '0' && name[0] <= '9') {
		name = "p" + name
	}
	return name
}
