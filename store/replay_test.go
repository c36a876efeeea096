package store_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/store"
	"github.com/proflens/proflens/store/storetest"
)

// types are the cpu profile type of the synthetic run in each store.
var types = map[string]string{store.Pyroscope: cpuType, store.Parca: "process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta"}

// replay starts a fake store answering the exchanges recorded from the
// real one (TestPyroscope, TestParca with -update) and returns the URL of
// the synthetic run's query on it.
func replay(t *testing.T, kind string) (store.Source, *httptest.Server) {
	t.Helper()
	r, err := storetest.LoadReplay(filepath.Join("testdata", kind+".json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	src, err := store.ParseURL(kind + "://" + strings.TrimPrefix(srv.URL, "http://") + "/" + types[kind] + `{service_name="phased"}`)
	if err != nil {
		t.Fatal(err)
	}
	return src, srv
}

// topOf sums the cpu value (the last value type) per function over the
// samples [lo, hi): flat at the leaf, cum once per sample where it occurs,
// as flatCum does for pprof.
func topOf(p *analysis.Profile, lo, hi int) map[string][2]int64 {
	out := map[string][2]int64{}
	v := len(p.ValueTypes) - 1
	for i := lo; i < hi; i++ {
		s := &p.Samples[i]
		st := p.Stacks.At(s.Stack)
		seen := map[string]bool{}
		for j, f := range st {
			n := p.Frames[f].Name
			x := out[n]
			if j == len(st)-1 {
				x[0] += p.Value(s, v)
			}
			if !seen[n] {
				x[1] += p.Value(s, v)
				seen[n] = true
			}
			out[n] = x
		}
	}
	return out
}

// TestReplay reads the recorded answers of each store: the merge of the
// whole run and the series of its six 10 s steps equal pprof's merge of
// the profiles written, the listing holds the type and the label.
func TestReplay(t *testing.T) {
	ctx := context.Background()
	for _, kind := range []string{store.Pyroscope, store.Parca} {
		t.Run(kind, func(t *testing.T) {
			src, _ := replay(t, kind)
			st := store.Open(src, 0)
			whole := store.Range{From: base, To: base.Add(time.Minute)}
			p, err := store.Fetch(ctx, st, src, whole, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			all := []*profile.Profile{phased(0), phased(1), phased(2), phased(3), phased(4), phased(5)}
			if got, want := fmt.Sprint(topOf(p, 0, len(p.Samples))), fmt.Sprint(flatCum(t, all)); got != want {
				t.Errorf("merge of the run: %s, want %s", got, want)
			}
			whole.Step = 10 * time.Second
			var progress []string
			p, err = store.Fetch(ctx, st, src, whole, store.Options{Progress: func(done, steps int, bytes int64) {
				progress = append(progress, fmt.Sprintf("%d/%d", done, steps))
			}})
			if err != nil {
				t.Fatal(err)
			}
			checkSeries(t, p, all)
			if got := strings.Join(progress, " "); got != "1/6 2/6 3/6 4/6 5/6 6/6" {
				t.Errorf("progress %s, want each of the six steps", got)
			}
			cat, err := store.Discover(ctx, st, time.Time{}, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(cat.Types, " "), types[kind]) || fmt.Sprint(cat.Labels) != "[{service_name [phased]}]" {
				t.Errorf("listing %+v, want the type %s and service_name=phased", cat, types[kind])
			}
		})
	}
}

// checkSeries checks a series of one interval per written profile: each
// interval's top is that profile's, its interval name its start time.
func checkSeries(t *testing.T, p *analysis.Profile, written []*profile.Profile) {
	t.Helper()
	if len(p.Intervals) != len(written)+1 {
		t.Fatalf("%d intervals, want %d", len(p.Intervals)-1, len(written))
	}
	for i, w := range written {
		if got, want := fmt.Sprint(topOf(p, p.Intervals[i], p.Intervals[i+1])), fmt.Sprint(flatCum(t, []*profile.Profile{w})); got != want {
			t.Errorf("step %d: %s, want %s", i+1, got, want)
		}
		if want := base.Add(time.Duration(i) * 10 * time.Second).Format(time.RFC3339); p.IntervalNames[i] != want {
			t.Errorf("step %d is named %s, want %s", i+1, p.IntervalNames[i], want)
		}
	}
}

// TestReplayErrors: an empty range and a query the store refuses give
// errors that say so, in the store's words.
func TestReplayErrors(t *testing.T) {
	ctx := context.Background()
	for kind, refusal := range map[string]string{store.Pyroscope: "(invalid_argument): 1:2: parse error: error parsing regexp: missing closing ): `^(?:()$`",
		store.Parca: "gRPC status 3 (invalid argument): failed to parse query"} {
		t.Run(kind, func(t *testing.T) {
			src, _ := replay(t, kind)
			st := store.Open(src, 0)
			_, err := store.Fetch(ctx, st, src, store.Range{From: base.Add(-time.Hour), To: base.Add(-time.Minute)}, store.Options{})
			if want := "no profiles from 2024-05-14T13:00:00Z to 2024-05-14T13:59:00Z"; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("empty range: %v, want %q", err, want)
			}
			src.Query.Matchers[0].Op, src.Query.Matchers[0].Value = "=~", "("
			_, err = store.Fetch(ctx, st, src, store.Range{From: base, To: base.Add(time.Minute)}, store.Options{})
			if err == nil || !strings.HasSuffix(err.Error(), refusal) {
				t.Errorf("bad regexp: %v, want it to end with %q", err, refusal)
			}
		})
	}
}

// failAfter is a store that answers n requests from the recording, then
// fails with status.
func failAfter(t *testing.T, kind string, n, status int) (store.Source, *int) {
	r, err := storetest.LoadReplay(filepath.Join("testdata", kind+".json"))
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if calls++; calls > n {
			http.Error(w, "the store is overloaded", status)
			return
		}
		r.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	src, _ := store.ParseURL(kind + "://" + strings.TrimPrefix(srv.URL, "http://") + "/" + types[kind] + `{service_name="phased"}`)
	return src, &calls
}

// TestPartial: a series whose store fails, or whose context ends, part
// way keeps the steps before, and says which step stopped it.
func TestPartial(t *testing.T) {
	src, _ := failAfter(t, store.Pyroscope, 3, http.StatusServiceUnavailable)
	r := store.Range{From: base, To: base.Add(time.Minute), Step: 10 * time.Second}
	p, err := store.Fetch(context.Background(), store.Open(src, 0), src, r, store.Options{})
	var partial *store.PartialError
	if !errors.As(err, &partial) || partial.Kept != 3 || partial.Steps != 6 || !strings.Contains(err.Error(), "step 4 of 6: ") ||
		!strings.Contains(err.Error(), "503 Service Unavailable: the store is overloaded") {
		t.Fatalf("err = %v, want a partial error at step 4 of 6 quoting the store", err)
	}
	checkSeries(t, p, []*profile.Profile{phased(0), phased(1), phased(2)})

	src, _ = replay(t, store.Pyroscope)
	ctx, cancel := context.WithCancel(context.Background())
	p, err = store.Fetch(ctx, store.Open(src, 0), src, r, store.Options{Progress: func(done, _ int, _ int64) {
		if done == 2 {
			cancel()
		}
	}})
	if !errors.As(err, &partial) || partial.Kept != 2 || !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted: err = %v, want a partial error of 2 steps wrapping context.Canceled", err)
	}
	checkSeries(t, p, []*profile.Profile{phased(0), phased(1)})
}
