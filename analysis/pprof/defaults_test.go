package pprof

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/proflens/proflens/analysis"
)

// realWith reads parca's fib.pb.gz, a real Go CPU profile, lets edit change
// it as a converter or an agent would have written it, and loads the result.
func realWith(t *testing.T, edit func(*profile.Profile)) *analysis.Profile {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "pprof-oracle", "fib.pb.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pp, err := profile.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	edit(pp)
	var buf bytes.Buffer
	if err := pp.Write(&buf); err != nil {
		t.Fatal(err)
	}
	p, err := analysis.Parse(context.Background(), "fib-edited.pb.gz", buf.Bytes(), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDefaultValueNonZero: a .NET agent's CPU profile lists lock_count and
// lock_time last, zero in every sample, and pprof defaults to the last
// type (grafana/pyroscope pkg/pprof/testdata/dotnet.labels.pprof: go tool
// pprof -top shows "0 of 0 total"). With such types added to a real
// profile, the loader shows the first nonzero type instead, and says so;
// value= still picks the zero one.
func TestDefaultValueNonZero(t *testing.T) {
	addLocks := func(pp *profile.Profile) {
		pp.SampleType = append(pp.SampleType, &profile.ValueType{Type: "lock_count", Unit: "count"}, &profile.ValueType{Type: "lock_time", Unit: "nanoseconds"})
		for _, s := range pp.Sample {
			s.Value = append(s.Value, 0, 0)
		}
		pp.DefaultSampleType = ""
	}
	p := realWith(t, addLocks)
	if got := p.ValueTypes[p.DefaultValue].Type; got != "samples" || len(p.Notes) != 1 ||
		p.Notes[0] != "the file's default value type lock_time is zero in every sample: showing samples, the first that is not (value= chooses another)" {
		t.Errorf("default %s, notes %q; want samples with a note on lock_time", got, p.Notes)
	}
	if p := realWith(t, func(pp *profile.Profile) {}); p.ValueTypes[p.DefaultValue].Type != "cpu" || len(p.Notes) != 0 {
		t.Errorf("the unedited profile: default %s, notes %q; want cpu, no note", p.ValueTypes[p.DefaultValue].Type, p.Notes)
	}
}

// TestImplausibleTimes: a duration that is the start time since 1970 (as a
// JFR-derived profile of Pyroscope's tests gives: 474466h13m4.699s, from
// 2024-02-16T10:13:04.699Z), a duration of years, and a start in 1970 each
// get a note; fib.pb.gz's own times get none.
func TestImplausibleTimes(t *testing.T) {
	jfrStart := time.Date(2024, 2, 16, 10, 13, 4, 699e6, time.UTC)
	for _, c := range []struct {
		name  string
		edit  func(*profile.Profile)
		notes []string
	}{
		{"as recorded", func(*profile.Profile) {}, nil},
		{"end time as duration", func(pp *profile.Profile) { pp.TimeNanos, pp.DurationNanos = jfrStart.UnixNano(), jfrStart.UnixNano() },
			[]string{"the file gives a duration of 474466h13m4.699s, which is its start time since 1970: the duration is wrong (an end time written as a duration?)"}},
		{"years", func(pp *profile.Profile) { pp.DurationNanos = int64(3 * 365 * 24 * time.Hour) },
			[]string{"the file gives a duration of 26280h0m0s, more than a week: it is probably wrong"}},
		{"time since boot", func(pp *profile.Profile) { pp.TimeNanos = int64(90 * time.Minute) },
			[]string{"the file gives a start time of 1970-01-01T01:30:00Z, outside 2000–2099: it is probably wrong (a time since boot?)"}},
	} {
		p := realWith(t, c.edit)
		if strings.Join(p.Notes, "|") != strings.Join(c.notes, "|") {
			t.Errorf("%s: notes %q, want %q", c.name, p.Notes, c.notes)
		}
	}
}
