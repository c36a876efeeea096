package kernel_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
)

// withCommand registers c for the duration of the test.

// probe is a command that records its call, for binding tests.
func probe(t *testing.T) *kernel.Call {
	var got kernel.Call
	lang.Add(t, &kernel.Command{
		Name: "probe", Summary: "records its call", Profiles: 1, AllowAs: true,
		Args: []kernel.Arg{{Name: "A"}, {Name: "B", Optional: true}},
		Options: []kernel.Option{
			{Name: "by", Default: "flat", Values: []string{"flat", "cum"}},
			{Name: "n", Default: "20"}, {Name: "focus"}, {Name: "min", Default: "1%"},
			{Name: "wait", Default: "1s"}, {Name: "inverted", Default: "false"},
		},
		Run: func(c *kernel.Call) error { got = *c; return nil },
	})
	return &got
}

func jerr(t *testing.T, err error) *jupyter.Error {
	t.Helper()
	var je *jupyter.Error
	if !errors.As(err, &je) {
		t.Fatalf("error %v (%T), want a *jupyter.Error", err, err)
	}
	return je
}

func TestUsageErrors(t *testing.T) {
	probe(t)
	lang.Add(t, &kernel.Command{Name: "znum", Summary: "numbers",
		Args:    []kernel.Arg{{Name: "N", Kind: kernel.KindNumber, Variadic: true}},
		Options: []kernel.Option{{Name: "every", Kind: kernel.KindDuration}, {Name: "min", Kind: kernel.KindNumber}},
		Run:     func(c *kernel.Call) error { return nil }})
	if _, err := lang.Run(t, nil, "znum 1 2.5 3% every=1m min=0.5"); err != nil {
		t.Errorf("znum with good numbers: %v", err)
	}
	tests := []struct{ code, name, want string }{
		{"ehco hi", "UsageError", `unknown command "ehco": did you mean echo?`},
		{"zzzzzzzz", "UsageError", `unknown command "zzzzzzzz": help lists all commands`},
		{"probe", "UsageError", "probe: missing A (usage: probe [NAME] A [B] [as NAME] [by=flat|cum]"},
		{"probe a b c", "UsageError", `no profile is named a; none is loaded: use load PATH as a first`},
		{"probe a byy=cum", "UsageError", "unknown option byy: did you mean by? options are by, n, focus, min, wait, inverted"},
		{"probe a by=weight", "UsageError", "by=weight is not allowed: use one of flat, cum"},
		{"probe a n=1 n=2", "UsageError", "n= is given twice"},
		{"probe a as", "UsageError", "as needs a NAME"},
		{"probe a as by=cum", "UsageError", "as needs a NAME"},
		{"probe a as x as y", "UsageError", "as is given twice"},
		{"sleep as nap 1s", "UsageError", "sleep does not name its result: drop as nap"},
		{"probe a n=x", "UsageError", "n=x is not an integer"},
		{"version now", "UsageError", `version: takes no arguments, but got "now"`},
		{"sleep", "UsageError", "sleep: missing DURATION"},
		{"sleep 1s as nap", "UsageError", "sleep does not name its result: drop as nap"},
		{"sleep forever", "UsageError", `sleep: DURATION "forever" is not a duration: write e.g. 2s or 150ms`},
		{"sleep -1s", "UsageError", `DURATION "-1s" is not a duration`},
		{"znum 1 2 x", "UsageError", `znum: N "x" is not a number`},
		{"znum 1 every=soon", "UsageError", `znum: every=soon is not a duration`},
		{"znum 1 min=5%x", "UsageError", `znum: min=5%x is not a number`},
		{"echo x=1", "UsageError", `unknown option x: options are stream`},
		{"clear x=1", "UsageError", `clear takes no options: quote the word ("x=1") to pass it as text`},
		{"help nosuch", "UsageError", `unknown command "nosuch"`},
		{`echo "open`, "SyntaxError", "line 1, column 6: unclosed quote"},
		{"echo a\nehco b", "UsageError", `line 2: unknown command "ehco"`},
	}
	for _, tt := range tests {
		code := tt.code
		if strings.HasPrefix(code, "probe a n=x") {
			withIntCheck(t)
			code = "probeint n=x"
		}
		_, err := lang.Run(t, nil, code)
		je := jerr(t, err)
		if je.Name != tt.name || !strings.Contains(je.Value, tt.want) {
			t.Errorf("%q: %s: %s, want %s containing %q", code, je.Name, je.Value, tt.name, tt.want)
		}
		if strings.Contains(je.Value, "\n") {
			t.Errorf("%q: message has several lines: %q", code, je.Value)
		}
	}
}

func withIntCheck(t *testing.T) {
	if lang.Table().Lookup("probeint") != nil {
		return
	}
	lang.Add(t, &kernel.Command{Name: "probeint", Summary: "checks n", Options: []kernel.Option{{Name: "n", Default: "1"}},
		Run: func(c *kernel.Call) error { _, err := c.Int("n"); return err }})
}

func TestBind(t *testing.T) {
	got := probe(t)
	s := kernel.NewSession(t.TempDir(), lang.Table())
	s.Add(&kernel.Loaded{Name: "cpu"})
	tests := []struct {
		code, profile, args, as, opts string
	}{
		{"probe x", "", "x", "", ""},
		{"probe cpu x y", "cpu", "x|y", "", ""},
		{"probe x y as z", "", "x|y", "z", ""},
		{`probe x "as"`, "", "x|as", "", ""},
		{`probe x by=cum focus="a b" "n=3"`, "", "x|n=3", "", "by=cum focus=a b"},
		{"probe cpu", "", "cpu", "", ""},
		{"probe x as z by=cum", "", "x", "z", "by=cum"},
		{"probe cpu by=cum as z x n=3", "cpu", "x", "z", "by=cum n=3"},
		{"probe as z cpu x", "cpu", "x", "z", ""},
		{`probe x as "two words"`, "", "x", "two words", ""},
	}
	for _, tt := range tests {
		if _, err := lang.Run(t, s, tt.code); err != nil {
			t.Errorf("%q: %v", tt.code, err)
			continue
		}
		var opts []string
		for _, o := range got.Cmd.AllOptions() {
			if v, ok := got.Opts[o.Name]; ok {
				opts = append(opts, o.Name+"="+v)
			}
		}
		named := strings.Join(got.Named, "|")
		if named != tt.profile || strings.Join(got.Args, "|") != tt.args || got.As != tt.as || strings.Join(opts, " ") != tt.opts {
			t.Errorf("%q bound to profile %q args %q as %q opts %q, want %q %q %q %q", tt.code,
				named, strings.Join(got.Args, "|"), got.As, strings.Join(opts, " "), tt.profile, tt.args, tt.as, tt.opts)
		}
	}
}

func TestCallHelpers(t *testing.T) {
	got := probe(t)
	s := kernel.NewSession("/data", lang.Table())
	if _, err := lang.Run(t, s, "probe x"); err == nil || !strings.Contains(err.Error(), "no profile loaded: use load PATH first") {
		t.Errorf("probe x with nothing loaded: %v, want no profile loaded", err)
	}
	s.Add(&kernel.Loaded{Name: "a"})
	s.Add(&kernel.Loaded{Name: "b"})
	if _, err := lang.Run(t, s, "probe x n=7 min=5% wait=250ms inverted=yes"); err != nil {
		t.Fatal(err)
	}
	n, err1 := got.Int("n")
	m, err2 := got.Float("min")
	w, err3 := got.Duration("wait")
	inv, err4 := got.Bool("inverted")
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		t.Fatal(err)
	}
	if n != 7 || m != 0.05 || w != 250*time.Millisecond || !inv || got.Opt("by") != "flat" || got.Has("by") {
		t.Errorf("helpers gave n=%d min=%v wait=%v inverted=%v by=%q has(by)=%v", n, m, w, inv, got.Opt("by"), got.Has("by"))
	}
	if p := got.Path("a/b.pprof"); p != "/data/a/b.pprof" {
		t.Errorf("Path(a/b.pprof) = %q, want /data/a/b.pprof", p)
	}
	if p := got.Path("/abs/x"); p != "/abs/x" {
		t.Errorf("Path(/abs/x) = %q, want /abs/x", p)
	}
	if _, err := lang.Run(t, s, "probe a x"); err != nil {
		t.Fatal(err)
	}
	if l := got.Profile(); l.Name != "a" {
		t.Errorf("Profile() after probe a x = %v, want a", l.Name)
	}
	if _, err := lang.Run(t, s, "probe x"); err != nil {
		t.Fatal(err)
	}
	if l := got.Profile(); l.Name != "b" {
		t.Errorf("Profile() after probe x = %v, want the current profile b", l.Name)
	}
}

func TestPanicKeepsSession(t *testing.T) {
	lang.Add(t, &kernel.Command{Name: "boom", Summary: "panics", Run: func(c *kernel.Call) error {
		c.Session.Add(&kernel.Loaded{Name: "half"})
		var m map[string]int
		m["x"] = 1
		return nil
	}})
	in := kernel.New(t.TempDir(), lang.Table())
	in.Log = slog.New(slog.DiscardHandler)
	in.Session().Add(&kernel.Loaded{Name: "cpu", Profile: &analysis.Profile{}})
	rec := &kernel.Recorder{}
	err := in.Execute(context.Background(), "echo before\nboom\necho after", rec)
	je := jerr(t, err)
	if je.Name != "InternalError" || !strings.Contains(je.Value, "line 2: boom failed inside proflens") {
		t.Errorf("panic gave %s: %s", je.Name, je.Value)
	}
	if got := rec.Text(); got != "before\n" {
		t.Errorf("output %q, want only the line before the panic", got)
	}
	if l := in.Session().Get("cpu"); l == nil || l.Profile == nil {
		t.Errorf("the loaded profile did not survive the panic")
	}
	rec = &kernel.Recorder{}
	if err := in.Execute(context.Background(), "echo still here", rec); err != nil || rec.Text() != "still here\n" {
		t.Errorf("after the panic: %q, %v", rec.Text(), err)
	}
}

func TestOtherErrors(t *testing.T) {
	lang.Add(t, &kernel.Command{Name: "fail", Summary: "fails", Run: func(c *kernel.Call) error {
		return errors.New("read x.pprof: line 3:\n  bad")
	}})
	_, err := lang.Run(t, nil, "fail")
	if je := jerr(t, err); je.Name != "Error" || je.Value != "read x.pprof: line 3: bad" {
		t.Errorf("fail gave %s: %q", je.Name, je.Value)
	}
}

func TestInterrupt(t *testing.T) {
	in := kernel.New(t.TempDir(), lang.Table())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	rec := &kernel.Recorder{}
	go func() { done <- in.Execute(ctx, "sleep 1m\necho not reached", rec) }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if je := jerr(t, err); je.Name != "KeyboardInterrupt" {
			t.Errorf("interrupted sleep gave %s: %s", je.Name, je.Value)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("sleep 1m was not interrupted")
	}
	if rec.Text() != "" {
		t.Errorf("output after interrupt: %q", rec.Text())
	}
	rec = &kernel.Recorder{}
	if err := in.Execute(context.Background(), "echo next", rec); err != nil || rec.Text() != "next\n" {
		t.Errorf("the next cell gave %q, %v", rec.Text(), err)
	}
}

func TestCommands(t *testing.T) {
	rec, err := lang.Run(t, nil, "echo  a   \"b  c\" # comment\necho stream=stderr oops\nversion\nclear\necho?")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range rec.Events {
		kinds = append(kinds, e.Kind)
	}
	if got := strings.Join(kinds, " "); got != "stream stream result clear payload" {
		t.Fatalf("events %s", got)
	}
	if rec.Stdout("stdout") != "a b  c\n" || rec.Stdout("stderr") != "oops\n" {
		t.Errorf("stdout %q stderr %q", rec.Stdout("stdout"), rec.Stdout("stderr"))
	}
	if v := rec.Events[2].Data["text/plain"]; v != "proflens 0.1.0" {
		t.Errorf("version = %q, want proflens 0.1.0", v)
	}
	p := rec.Events[4].Payload
	data, _ := p["data"].(map[string]any)
	if p["source"] != "page" || p["start"] != 0 || !strings.Contains(data["text/plain"].(string), "usage: echo [TEXT...] [stream=stdout|stderr]") {
		t.Errorf("echo? payload %v", p)
	}
	rec, err = lang.Run(t, nil, "?sleep")
	if err != nil || len(rec.Events) != 1 || rec.Events[0].Kind != "payload" {
		t.Errorf("?sleep gave %v, %v; want one pager payload", rec.Events, err)
	}
	if _, err := lang.Run(t, nil, "nosuch?"); err == nil || !strings.Contains(err.Error(), `unknown command "nosuch?"`) {
		t.Errorf("nosuch? gave %v, want an unknown command error", err)
	}
}

// TestTwoProfiles: a command of two profiles gets BASE and NEW bound and
// resolved by the command table, with usage, help and completion of both.
func TestTwoProfiles(t *testing.T) {
	var got kernel.Call
	lang.Add(t, &kernel.Command{Name: "zdiff", Summary: "compares", Profiles: 2, AllowAs: true,
		Args:    []kernel.Arg{{Name: "X", Optional: true, Complete: func(c *kernel.Call, p string) []string { return []string{c.Profiles[1].Name + "-x"} }}},
		Options: []kernel.Option{{Name: "n", Default: "1"}},
		Run:     func(c *kernel.Call) error { got = *c; return nil }})
	in := kernel.New(t.TempDir(), lang.Table())
	s := in.Session()
	for _, n := range []string{"old", "new", "cur"} {
		s.Add(&kernel.Loaded{Name: n})
	}
	if _, err := kernel.RunCell(context.Background(), s, "zdiff old new x as d n=2"); err != nil {
		t.Fatal(err)
	}
	if len(got.Profiles) != 2 || got.Profiles[0] != s.Get("old") || got.Profiles[1] != s.Get("new") ||
		strings.Join(got.Args, "|") != "x" || got.As != "d" {
		t.Errorf("zdiff old new x as d bound %v args %q as %q", got.Named, got.Args, got.As)
	}
	for _, tc := range []struct{ code, want string }{
		{"zdiff", "missing BASE: name two loaded profiles, BASE then NEW"},
		{"zdiff old", "missing NEW"},
		{"zdiff old nosuch", "NEW: no profile is named nosuch; loaded are cur, new, old"},
		{"zdiff x old", "BASE: no profile is named x"},
		{"zdiff old new x y", `"y" is one too many`},
	} {
		_, err := kernel.RunCell(context.Background(), s, tc.code)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "usage: zdiff BASE NEW [X] [as NAME] [n=1]") {
			t.Errorf("%q: %v, want an error containing %q and the usage", tc.code, err, tc.want)
		}
	}
	for _, tc := range []struct{ code, want string }{
		{"zdiff ", "cur new old n="},
		{"zdiff o", "old"},
		{"zdiff old ", "cur new old n="},
		{"zdiff old new ", "new-x n="},
		{"zdiff old cur as d ", "cur-x n="},
	} {
		if m := in.Complete(tc.code, len(tc.code)).Matches; strings.Join(m, " ") != tc.want {
			t.Errorf("Complete(%q) = %q, want %q", tc.code, m, tc.want)
		}
	}
	if h := kernel.HelpBundle(lang.Table().Lookup("zdiff"))["text/plain"].(string); !strings.Contains(h, "  BASE     a loaded profile, the baseline\n  NEW      a loaded profile compared with BASE\n") {
		t.Errorf("help zdiff does not document BASE and NEW:\n%s", h)
	}
}
