package store

import (
	"strings"
	"testing"
	"time"
)

func TestParseURL(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{`pyroscope://127.0.0.1:4040/process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="checkout"}`,
			`pyroscope://127.0.0.1:4040/process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="checkout"}`, ""},
		// The kernel's word rules take the quotes away: a bare value reads the same.
		{`pyroscope://h:1/t{service_name=checkout, region =~ eu-.* ,pod!=a b}`, `pyroscope://h:1/t{service_name="checkout",region=~"eu-.*",pod!="a b"}`, ""},
		{`parca://localhost/process_cpu:samples:count:cpu:nanoseconds:delta{job="a\"b"}`,
			`parca://localhost:7070/process_cpu:samples:count:cpu:nanoseconds:delta{job="a\"b"}`, ""},
		{`pyroscope+https://store.example:443/t`, `pyroscope+https://store.example:443/t{}`, ""},
		{`pyroscope://[::1]:4040`, `pyroscope://[::1]:4040`, ""},
		{`pyroscope://h:4040/t{}`, `pyroscope://h:4040/t{}`, ""},
		{`pyroscope://`, "", "no host"},
		{`pyroscope://h:99999/t`, "", `"h:99999" is not HOST:PORT`},
		{`parca://h/{job="x"}`, "", "column 1: expected a profile type first"},
		{`parca://h/t{job="x"`, "", "column 10: expected , or } after a label value"},
		{`parca://h/t{job}`, "", "column 6: expected =, !=, =~ or !~ after the label name job"},
		{`parca://h/t{="x"}`, "", "column 3: expected a label name"},
		{`parca://h/t{job="x}`, "", `column 7: expected a closing " for the label value`},
		{`parca://h/t{job=x}y`, "", "column 9: expected the end of the query after }"},
		{`parca://h/t{job=x`, "", "column 7: expected a label value and a closing }"},
		{`parca://h/t{job="\q"}`, "", "column 7: expected a label value in Go's quoting"},
		{`http://h/t`, "", "expected pyroscope://HOST:PORT/QUERY"},
	}
	for _, tt := range tests {
		src, err := ParseURL(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseURL(%s) = %v, want an error containing %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || src.String() != tt.want {
			t.Errorf("ParseURL(%s) = %s, %v, want %s", tt.in, src, err, tt.want)
		}
	}
}

func TestIsURL(t *testing.T) {
	for s, want := range map[string]bool{"pyroscope://h": true, "parca+https://h": true, "parca:/h": false, "cpu.pprof": false, "pyroscopes://h": false} {
		if IsURL(s) != want {
			t.Errorf("IsURL(%s) = %v", s, !want)
		}
	}
}

func TestParseTime(t *testing.T) {
	now := time.Date(2024, 5, 14, 15, 0, 0, 0, time.UTC)
	for in, want := range map[string]string{
		"2024-05-14T14:00:00Z":      "2024-05-14T14:00:00Z",
		"2024-05-14T16:00:00+02:00": "2024-05-14T14:00:00Z",
		"1715695200":                "2024-05-14T14:00:00Z",
		"1715695200.5":              "2024-05-14T14:00:00.5Z",
		"now":                       "2024-05-14T15:00:00Z",
		"now-1h":                    "2024-05-14T14:00:00Z",
		"now-90m":                   "2024-05-14T13:30:00Z",
		"now+5m":                    "2024-05-14T15:05:00Z",
		"now-2d":                    "2024-05-12T15:00:00Z",
	} {
		got, err := ParseTime(in, now)
		if err != nil || got.UTC().Format(time.RFC3339Nano) != want {
			t.Errorf("ParseTime(%s) = %v, %v, want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "yesterday", "now-", "now-1y", "now*2", "-5", "1e9", "2024-05-14"} {
		if _, err := ParseTime(bad, now); err == nil || !strings.Contains(err.Error(), "RFC 3339") {
			t.Errorf("ParseTime(%q) = %v, want an error naming the forms", bad, err)
		}
	}
}

// FuzzParseQuery: a query parses or fails with an error, and a parsed
// query written back in its normal form parses to the same query.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{`t{a="b",c=~"d.*"}`, `t{a=b}`, `t`, `t{}`, `t{a="\u00e9\n"}`, `{`, `t{a!~x,b!=y}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuery(s)
		if err != nil {
			return
		}
		again, err := ParseQuery(q.String())
		if err != nil || again.String() != q.String() {
			t.Errorf("ParseQuery(%q) = %s, which parses to %s, %v", s, q, again, err)
		}
	})
}
