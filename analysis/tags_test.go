package analysis

import "testing"

// TestParseTagFilter: which values pprof reads as ranges, and a few
// matches on the labels of real samples (parca's alloc_objects.pb.gz:
// bytes=648kB, numeric; profile-with-labels.pb.gz: thread_id=2756158, a
// string).
func TestParseTagFilter(t *testing.T) {
	heap := map[string][]string{"bytes": {"663552 bytes"}}
	thread := map[string][]string{"thread_id": {"2756158"}, "thread_name": {"parca"}}
	units := map[string]string{"bytes": "bytes"}
	for _, c := range []struct {
		filter       string
		isRange      bool
		heap, thread bool
	}{
		{"bytes=648kb", true, true, false},
		{"bytes=1kb:1mb", true, true, false},
		{"600kb:", true, true, false},
		{":64", true, false, false}, // no unit: byte labels never match
		{"thread_id=2756158", true, false, false},
		{"thread_id=^2756", false, false, true},
		{"parca,thread_id:2756", false, false, true},
		{"parca,thread_id:9", false, false, false},
		{"thread_name=par", false, false, true},
		{"bytes=663552 bytes", false, false, false},
	} {
		f, err := ParseTagFilter(c.filter)
		if err != nil {
			t.Fatalf("ParseTagFilter(%q): %v", c.filter, err)
		}
		if f.Range != c.isRange || f.String() != c.filter {
			t.Errorf("ParseTagFilter(%q) = range %v, %q; want range %v", c.filter, f.Range, f, c.isRange)
		}
		if got := f.Match(heap, units); got != c.heap {
			t.Errorf("%q on bytes=648kB: %v, want %v", c.filter, got, c.heap)
		}
		if got := f.Match(thread, nil); got != c.thread {
			t.Errorf("%q on thread_id=2756158: %v, want %v", c.filter, got, c.thread)
		}
	}
	if _, err := ParseTagFilter("key=("); err == nil {
		t.Errorf("ParseTagFilter(key=() = nil error, want a regexp error")
	}
}

func FuzzParseTagFilter(f *testing.F) {
	for _, s := range []string{"bytes=1kb:1mb", ":64", "a=b,c", "x=-5:+7ms", "k=("} {
		f.Add(s, "100 bytes")
	}
	f.Fuzz(func(t *testing.T, filter, value string) {
		tf, err := ParseTagFilter(filter)
		if err != nil || tf == nil {
			return
		}
		labels := map[string][]string{"bytes": {value}, "k": {value}}
		tf.Match(labels, map[string]string{"bytes": "bytes"})
		tf.Match(labels, nil)
	})
}
