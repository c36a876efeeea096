package pprof

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/internal/testtool"
)

// tagCases are tagfocus and tagignore values checked against go tool
// pprof on real labelled profiles: string labels by key and regular
// expression, "key:value" expressions without a key, numeric ranges with
// units, and values pprof reads as a range although the label is a string
// (thread_id=2764734 matches nothing, in pprof as here).
var tagCases = []struct {
	file, focus, ignore string
	none                bool // pprof keeps no sample
}{
	{"profile-with-labels.pb.gz", "thread_id=2764734", "", true},
	{"profile-with-labels.pb.gz", "thread_id=^2756", "", false},
	{"profile-with-labels.pb.gz", "thread_id=2756158|2756159", "", false},
	{"profile-with-labels.pb.gz", "thread_id:27561[56]", "", false},
	{"profile-with-labels.pb.gz", "parca,thread_id:2764", "", false},
	{"profile-with-labels.pb.gz", "", "thread_id=2756158|2764734", false},
	{"profile-with-labels.pb.gz", "thread_name=parca", "thread_id=2756161", false},
	{"alloc_objects.pb.gz", "bytes=1kb:1mb", "", false},
	{"alloc_objects.pb.gz", ":64", "", true}, // a range without a unit: byte labels never match
	{"alloc_objects.pb.gz", ":64b", "", false},
	{"alloc_objects.pb.gz", "bytes=648kb", "", false},
	{"alloc_objects.pb.gz", "", "bytes=256kb:", false},
	{"alloc_objects.pb.gz", "bytes=2048b:4096b", "bytes=3kb", false},
	{"api-labels.pb.gz", "api=query", "", false},
	{"api-labels.pb.gz", "", "api=query", false},
}

// TestTagFilterAgainstPprof: the call tree under each tag filter holds, per
// call path, the value go tool pprof -traces gives with -tagfocus and
// -tagignore.
func TestTagFilterAgainstPprof(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go tool pprof")
	}
	testtool.Need(t, "go")
	for _, c := range tagCases {
		t.Run(c.file+" focus="+c.focus+" ignore="+c.ignore, func(t *testing.T) {
			path := filepath.Join("testdata", "labels", c.file)
			p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var f analysis.Filter
			var flags []string
			if f.TagFocus, err = analysis.ParseTagFilter(c.focus); err != nil {
				t.Fatal(err)
			}
			if f.TagIgnore, err = analysis.ParseTagFilter(c.ignore); err != nil {
				t.Fatal(err)
			}
			if c.focus != "" {
				flags = append(flags, "-tagfocus="+c.focus)
			}
			if c.ignore != "" {
				flags = append(flags, "-tagignore="+c.ignore)
			}
			v := p.DefaultValue
			want := runPprofTraces(t, path, v, p.ValueTypes[v].Unit, flags...)
			got := treePaths(analysis.NewTree(p.Filter(f)), v)
			comparePaths(t, got, want)
			if (len(want) == 0) != c.none {
				t.Errorf("pprof keeps %d call paths, want some: %v", len(want), !c.none)
			}
		})
	}
}
