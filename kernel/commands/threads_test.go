package commands

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
)

// pprofTags runs go tool pprof -tags on path and returns the counts of
// key's values.
func pprofTags(t *testing.T, path, key string) map[string]int64 {
	t.Helper()
	out, err := exec.Command("go", "tool", "pprof", "-tags", path).Output()
	if err != nil {
		t.Fatalf("go tool pprof -tags %s: %v", path, err)
	}
	counts := map[string]int64{}
	block := false
	row := regexp.MustCompile(`^\s+(\d+) \(\s*[\d.]+%\): (.+)$`)
	for _, line := range strings.Split(string(out), "\n") {
		switch m := row.FindStringSubmatch(line); {
		case strings.HasPrefix(strings.TrimSpace(line), key+":"):
			block = true
		case strings.TrimSpace(line) == "":
			block = false
		case block && m != nil:
			counts[m[2]], _ = strconv.ParseInt(m[1], 10, 64)
		}
	}
	return counts
}

// TestThreadsCommand: threads lists the six threads of a labelled Go
// profile (parca's profile-with-labels.pb.gz) with the samples go tool
// pprof -tags counts for their thread_id labels; thread= keeps one thread's
// samples in every command that reads a tree, and so does the standing
// filter; info lists the labels.
func TestThreadsCommand(t *testing.T) {
	path, err := filepath.Abs(filepath.Join("..", "..", "analysis", "pprof", "testdata", "labels", "profile-with-labels.pb.gz"))
	if err != nil {
		t.Fatal(err)
	}
	want := pprofTags(t, path, "thread_id")
	if len(want) != 6 {
		t.Fatalf("pprof -tags gives %d thread ids, want 6", len(want))
	}
	s := kernel.NewSession(t.TempDir(), testTable())
	rec, err := RunForTest(t, s, "load "+path+" as pl\nthreads\ntop thread=2764734 n=0\nfilter thread=2756161\ninfo\nfilter off tagfocus=x")
	if err == nil || !strings.Contains(err.Error(), "off drops the whole filter") {
		t.Errorf("filter off tagfocus=x: error %v, want a usage error", err)
	}
	b := rec.Bundles()
	rows := b[1]["application/json"].([]map[string]any)
	if len(rows) != 6 {
		t.Fatalf("threads: %d rows, want 6", len(rows))
	}
	for _, r := range rows {
		id := r["id"].(string)
		if got, _ := json.Marshal(r["samples"]); string(got) != strconv.FormatInt(want[id], 10) || r["thread"] != "parca (tid "+id+")" {
			t.Errorf("threads row %v: want thread parca (tid %s) with %d samples (pprof -tags)", r, id, want[id])
		}
	}
	top := b[2]["application/json"].(map[string]any)
	if kept := sumFlat(top); kept != want["2764734"] || !strings.Contains(b[2]["text/plain"].(string), "pl (thread=2764734)") {
		t.Errorf("top thread=2764734 keeps %d, want %d, with the filter named:\n%s", kept, want["2764734"], b[2]["text/plain"])
	}
	info := b[3]["text/plain"].(string)
	for _, line := range []string{"labels           thread_id (6 values, on all samples), thread_name (1 value, on all samples)",
		"filter           thread=2756161; keeps 13 of 462 (2.8%) in samples"} {
		if !strings.Contains(info, line) {
			t.Errorf("info lacks %q:\n%s", line, info)
		}
	}
}

// sumFlat adds the flat values of a top JSON's rows.
func sumFlat(top map[string]any) int64 {
	var n int64
	for _, r := range top["rows"].([]map[string]any) {
		n += r["flat"].(int64)
	}
	return n
}
