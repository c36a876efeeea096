package store_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/proflens/proflens/internal/golden"
	"github.com/proflens/proflens/internal/testtool"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/commands"
	"github.com/proflens/proflens/store"
	"github.com/proflens/proflens/store/storetest"
)

// base is when the synthetic run starts: six CPU profiles, 10 s apart,
// phase A three times, then phase B three times.
var base = time.Date(2024, 5, 14, 14, 0, 0, 0, time.UTC)

const cpuType = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

// phased returns the i-th profile of the synthetic run, built with pprof's
// own package (not proflens's writer): stacks of distinct functions at
// distinct addresses, values that differ from profile to profile. The
// phases spend their time in different packages (crypto/sha256; sort and
// runtime), which is what phases tells apart at its default level.
func phased(i int) *profile.Profile {
	names := []string{"main.main", "main.phaseA", "crypto/sha256.block", "main.phaseB", "sort.insertionSort", "runtime.memmove"}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10_000_000,
		TimeNanos: base.Add(time.Duration(i) * 10 * time.Second).UnixNano(), DurationNanos: int64(10 * time.Second),
	}
	loc := map[string]*profile.Location{}
	for j, n := range names {
		f := &profile.Function{ID: uint64(j + 1), Name: n, SystemName: n, Filename: "main.go"}
		loc[n] = &profile.Location{ID: uint64(j + 1), Address: uint64(0x1000 * (j + 1)), Line: []profile.Line{{Function: f, Line: int64(10 * (j + 1))}}}
		p.Function, p.Location = append(p.Function, f), append(p.Location, loc[n])
	}
	add := func(n int64, stack ...string) {
		var locs []*profile.Location
		for _, s := range slices.Backward(stack) {
			locs = append(locs, loc[s])
		}
		p.Sample = append(p.Sample, &profile.Sample{Location: locs, Value: []int64{n, n * p.Period}})
	}
	k := int64(i + 1)
	if i < 3 {
		add(20+k, "main.main", "main.phaseA", "crypto/sha256.block")
		add(5*k, "main.main", "main.phaseA")
	} else {
		add(30+k, "main.main", "main.phaseB", "sort.insertionSort")
		add(7+k, "main.main", "main.phaseB", "sort.insertionSort", "runtime.memmove")
	}
	return p
}

// pyroscopeBinary returns the Pyroscope server built into .build/, or
// skips the test.
func pyroscopeBinary(t *testing.T) string {
	bin := os.Getenv("PROFLENS_PYROSCOPE")
	if bin == "" {
		bin = "../.build/pyroscope/pyroscope"
	}
	if _, err := os.Stat(bin); err != nil {
		testtool.Missing(t, fmt.Sprintf("no Pyroscope server at %s: `make pyroscope` builds it (about 4 minutes)", bin))
	}
	return bin
}

// TestPyroscope runs a real Pyroscope server, writes the synthetic run to
// it after the fact, and reads it back through load (checkStore). With
// -update it records the exchanges under testdata/ for the unit tests'
// fake store.
func TestPyroscope(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	srv, err := storetest.StartPyroscope(ctx, pyroscopeBinary(t), t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	checkStore(t, ctx, store.Pyroscope, srv.Addr, cpuType, "error parsing regexp")
}

// TestParca is TestPyroscope on a real Parca server. It is opt-in (Parca
// takes 5-6 minutes and 4 GB of modules to build): make test-stores
// PARCA=1 builds it and sets PROFLENS_PARCA.
func TestParca(t *testing.T) {
	bin := os.Getenv("PROFLENS_PARCA")
	if bin == "" {
		t.Skip("SKIP: the Parca test is opt-in: make test-stores PARCA=1 builds Parca (5-6 minutes, 4 GB of modules) and runs it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	srv, err := storetest.StartParca(ctx, bin, t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	checkStore(t, ctx, store.Parca, srv.Addr, "process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta", "parse")
}

// checkStore writes the synthetic run to the store at addr and reads it
// back through load: the merged top over three ranges equals pprof's own
// merge of the profiles written, the series of 10 s steps gives phases A
// then B, the listing names the type and label, an empty range and a bad
// regexp (the store's error contains badRegexp) give clear errors.
func checkStore(t *testing.T, ctx context.Context, kind, addr, typ, badRegexp string) {
	var written []*profile.Profile
	var raw [][]byte
	for i := range 6 {
		var b bytes.Buffer
		written = append(written, phased(i))
		if err := written[i].Write(&b); err != nil {
			t.Fatal(err)
		}
		raw = append(raw, b.Bytes())
	}
	direct, _ := store.ParseURL(kind + "://" + addr)
	if err := store.Push(ctx, direct, [][2]string{{"__name__", "process_cpu"}, {"service_name", "phased"}}, raw...); err != nil {
		t.Fatal(err)
	}
	rec := storetest.NewRecorder(addr)
	proxy := httptest.NewServer(rec)
	defer proxy.Close()
	host := strings.TrimPrefix(proxy.URL, "http://")
	url := kind + "://" + host + "/" + typ + `{service_name="phased"}`
	waitFor(t, ctx, url)
	rec.Exchanges = nil

	s := kernel.NewSession(t.TempDir(), commands.All)
	for _, c := range []struct {
		from, to time.Duration
		want     []*profile.Profile
	}{{0, time.Minute, written}, {0, 30 * time.Second, written[:3]}, {30 * time.Second, time.Minute, written[3:]}} {
		cell := fmt.Sprintf("load %s from=%s to=%s as w\ntop n=100", url, stamp(c.from), stamp(c.to))
		checkTop(t, s, cell, c.want)
	}
	checkPhases(t, s, url)
	checkListing(t, s, kind+"://"+host, typ)
	if _, err := run(t, s, "load "+url+" from="+stamp(-time.Hour)+" to="+stamp(-time.Minute)); err == nil || !strings.Contains(err.Error(), "no profiles from 2024-05-14T13:00:00Z") {
		t.Errorf("load of an empty range: %v, want an error saying there are no profiles", err)
	}
	bad := kind + "://" + host + "/" + typ + `{service_name=~"("} from=` + stamp(0) + " to=" + stamp(time.Minute)
	if _, err := run(t, s, "load "+bad); err == nil || !strings.Contains(err.Error(), badRegexp) {
		t.Errorf("load with a bad regexp: %v, want the store's error", err)
	}
	if *golden.Update {
		if err := rec.Save(filepath.Join("testdata", kind+".json")); err != nil {
			t.Fatal(err)
		}
	}
}

func stamp(d time.Duration) string { return base.Add(d).Format(time.RFC3339) }

// waitFor waits until the store answers the synthetic run's merge (a
// written profile is queryable within a moment, not at once).
func waitFor(t *testing.T, ctx context.Context, url string) {
	src, _ := store.ParseURL(url)
	st := store.Open(src, 0)
	for {
		data, err := st.Merge(ctx, src.Query, base, base.Add(time.Minute), 1<<20)
		if err == nil && len(data) > 100 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the store never answered the profiles written: %v", err)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func run(t *testing.T, s *kernel.Session, cell string) (*kernel.Recorder, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return kernel.RunCell(ctx, s, cell)
}

// checkTop runs a load and top, and compares the top's rows with the flat
// and cum per function of pprof's merge of want.
func checkTop(t *testing.T, s *kernel.Session, cell string, want []*profile.Profile) {
	t.Helper()
	rec, err := run(t, s, cell)
	if err != nil {
		t.Fatalf("%s: %v", cell, err)
	}
	got := map[string][2]int64{}
	for _, b := range rec.Bundles() {
		if js, ok := b["application/json"].(map[string]any); ok && js["rows"] != nil {
			for _, r := range js["rows"].([]map[string]any) {
				got[r["name"].(string)] = [2]int64{r["flat"].(int64), r["cum"].(int64)}
			}
		}
	}
	oracle := flatCum(t, want)
	if fmt.Sprint(got) != fmt.Sprint(oracle) {
		t.Errorf("%s\ntop = %v\nwant (pprof's merge of the profiles written) %v", cell, got, oracle)
	}
}

// flatCum merges profiles with pprof's profile.Merge and sums the cpu
// value per function: flat where it is the leaf, cum once per sample
// where it occurs.
func flatCum(t *testing.T, ps []*profile.Profile) map[string][2]int64 {
	var copies []*profile.Profile
	for _, p := range ps {
		copies = append(copies, p.Copy())
	}
	m, err := profile.Merge(copies)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][2]int64{}
	for _, s := range m.Sample {
		seen := map[string]bool{}
		for i, l := range s.Location {
			n := l.Line[0].Function.Name
			v := out[n]
			if i == 0 {
				v[0] += s.Value[1]
			}
			if !seen[n] {
				v[1] += s.Value[1]
				seen[n] = true
			}
			out[n] = v
		}
	}
	return out
}

// checkPhases loads the run as a series of 10 s steps and checks that
// phases puts the first three steps in one phase and the last three in
// another.
func checkPhases(t *testing.T, s *kernel.Session, url string) {
	t.Helper()
	cell := fmt.Sprintf("load %s from=%s to=%s step=10s as steps\nphases", url, stamp(0), stamp(time.Minute))
	if _, err := run(t, s, cell); err != nil {
		t.Fatalf("%s: %v", cell, err)
	}
	l := s.Get("steps")
	if n := len(l.Profile.Intervals) - 1; n != 6 {
		t.Fatalf("the series has %d steps, want 6", n)
	}
	of := commands.LastPhases(l).Result.Of
	if len(of) != 6 || of[0] != of[1] || of[1] != of[2] || of[3] != of[4] || of[4] != of[5] || of[0] == of[3] {
		t.Errorf("phases of the six steps = %v, want A A A B B B", of)
	}
}

// checkListing lists the store and checks its type and label.
func checkListing(t *testing.T, s *kernel.Session, url, typ string) {
	t.Helper()
	rec, err := run(t, s, "load "+url)
	if err != nil {
		t.Fatal(err)
	}
	text := rec.Text()
	for _, want := range []string{typ, "service_name", "phased"} {
		if !strings.Contains(text, want) {
			t.Errorf("the listing lacks %s:\n%s", want, text)
		}
	}
}
