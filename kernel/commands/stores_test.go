package commands

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/store/storetest"
)

// fakePyroscope serves the exchanges recorded from a real Pyroscope by
// store's TestPyroscope (six CPU profiles of service_name="phased", 10 s
// apart from 2024-05-14T14:00:00Z); after answers requests it answers 503.
// It returns the store's HOST:PORT.
func fakePyroscope(t *testing.T, answers int) string {
	r, err := storetest.LoadReplay("../../store/testdata/pyroscope.json")
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if calls++; answers >= 0 && calls > answers {
			http.Error(w, "the store is overloaded", http.StatusServiceUnavailable)
			return
		}
		r.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://")
}

const phasedQuery = `/process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="phased"}`

// TestLoadStore: a store query loads as one profile named after the
// service, and with step= as a series shown with a progress line that
// ends as a summary.
func TestLoadStore(t *testing.T) {
	host := fakePyroscope(t, -1)
	s := kernel.NewSession(t.TempDir(), testTable())
	url := "pyroscope://" + host + phasedQuery
	if _, err := RunForTest(t, s, "load "+url+" from=2024-05-14T14:00:00Z to=1715695260"); err != nil {
		t.Fatal(err)
	}
	l := s.Get("phased")
	if l == nil || l.Profile.Source != url || l.Profile.Intervals != nil || len(l.Profile.Samples) == 0 {
		t.Fatalf("load gave %+v, want one merged profile named phased from %s", l, url)
	}
	rec, err := RunForTest(t, s, "load "+url+" from=2024-05-14T14:00:00Z to=2024-05-14T14:01:00Z step=10s as steps")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range rec.Events {
		if e.ID != "" {
			kinds = append(kinds, e.Kind)
		}
	}
	if got := strings.Join(kinds, " "); got != "display update update update update update update update" {
		t.Errorf("progress events %s, want a display, an update per step and the summary", got)
	}
	want := "loaded steps from " + url + ": 6 steps of 10s from 2024-05-14T14:00:00Z to 2024-05-14T14:01:00Z, 0 empty, 12 samples"
	if got := rec.Bundles()[0]["text/plain"]; got != want {
		t.Errorf("the progress line ends as %q, want %q", got, want)
	}
	if n := len(s.Get("steps").Profile.IntervalNames); n != 6 {
		t.Errorf("the series has %d intervals, want 6", n)
	}
}

// TestLoadStorePartial: a store that fails part way leaves the steps
// fetched loaded, and the error says so.
func TestLoadStorePartial(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	url := "pyroscope://" + fakePyroscope(t, 4) + phasedQuery
	rec, err := RunForTest(t, s, "load "+url+" from=2024-05-14T14:00:00Z to=2024-05-14T14:01:00Z step=10s")
	want := "step 5 of 6: pyroscope://"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.HasSuffix(err.Error(), "the 4 steps before it are loaded as phased") {
		t.Fatalf("err = %v, want %q and the steps kept", err, want)
	}
	summary := "loaded phased from " + url + ": 4 steps of 10s from 2024-05-14T14:00:00Z to 2024-05-14T14:01:00Z, 0 empty, 8 samples: stopped, failed"
	if got := rec.Bundles()[0]["text/plain"]; got != summary {
		t.Errorf("the progress line ends as %q, want %q", got, summary)
	}
	if l := s.Get("phased"); l == nil || len(l.Profile.IntervalNames) != 4 {
		t.Errorf("kept %+v, want the 4 steps fetched", l)
	}
	if _, err := RunForTest(t, s, "phases"); err != nil {
		t.Errorf("phases on the steps kept: %v", err)
	}
}

// TestStoreListingCompletes: listing a store shows its types and labels,
// and Tab completes them in a store URL afterwards.
func TestStoreListingCompletes(t *testing.T) {
	host := fakePyroscope(t, -1)
	in := kernel.New(t.TempDir(), testTable())
	rec, err := RunForTest(t, in.Session(), "load pyroscope://"+host)
	if err != nil {
		t.Fatal(err)
	}
	text := rec.Text()
	for _, want := range []string{"process_cpu:samples:count:cpu:nanoseconds", "service_name", "phased"} {
		if !strings.Contains(text, want) {
			t.Errorf("the listing lacks %s:\n%s", want, text)
		}
	}
	head := "load pyroscope://" + host + "/"
	for _, tt := range []struct{ code, want string }{
		{"load pyr", "pyroscope:// pyroscope://" + host + "/"},
		{"load pyroscope://" + host[:3], "pyroscope://" + host + "/"},
		{head + "process_cpu:s", "pyroscope://" + host + "/process_cpu:samples:count:cpu:nanoseconds pyroscope://" + host + "/process_cpu:samples:count:cpu:nanoseconds{"},
		{head + "t{se", "pyroscope://" + host + "/t{service_name="},
		{head + "t{a=b,service_name=ph", "pyroscope://" + host + "/t{a=b,service_name=phased"},
		{head + "t{service_name!~x,zz", ""},
	} {
		c := in.Complete(tt.code, len(tt.code))
		if got := strings.Join(c.Matches, " "); got != tt.want {
			t.Errorf("Complete(%s) = %s, want %s", tt.code, got, tt.want)
		}
	}
}

// TestLoadStoreUsage: what a store load needs, and what only a store load
// takes, are usage errors that say so.
func TestLoadStoreUsage(t *testing.T) {
	for code, want := range map[string]string{
		"load pyroscope://127.0.0.1:1/t{a=b} from=now-1h":                        "a store query needs from= and to=",
		"load pyroscope://127.0.0.1:1/t from=yesterday to=now":                   `from=: "yesterday" is not a time`,
		"load pyroscope://127.0.0.1:1/t{a=b from=now-1h to=now":                  "column 5: expected a label value and a closing }",
		"load demo:profvis-toy step=10s":                                         "step= reads a store",
		"load pyroscope://127.0.0.1:1/t from=now-1h to=now step=1s max-steps=10": "more than max-steps=10",
	} {
		_, err := RunForTest(t, nil, code)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", code, err, want)
		}
	}
}
