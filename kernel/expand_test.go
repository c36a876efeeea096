package kernel_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
)

func TestExpand(t *testing.T) {
	vars := map[string]string{"P": "demo:profvis-toy", "N": "5", "A_1": "x y", "E": ""}
	lookup := func(n string) (string, bool) { v, ok := vars[n]; return v, ok }
	tests := []struct{ in, want, undefined string }{
		{"$P", "demo:profvis-toy", ""},
		{"${P}", "demo:profvis-toy", ""},
		{"n=$N", "n=5", ""},
		{"${N}0", "50", ""},
		{"$N0", "", "N0"},
		{"pre-$A_1-post", "pre-x y-post", ""},
		{"[$E]", "[]", ""},
		{"main$", "main$", ""},       // a regular expression's end
		{"^(a$|b$)", "^(a$|b$)", ""}, // no name follows
		{"$$P", "$P", ""},
		{"$$$P", "$demo:profvis-toy", ""},
		{"${", "${", ""},
		{"${P", "${P", ""},
		{"${1}", "${1}", ""},
		{"$1", "$1", ""},
		{"$é", "$é", ""},
		{"$MISSING/x", "", "MISSING"},
		{"${MISSING}", "", "MISSING"},
	}
	for _, tt := range tests {
		got, err := kernel.Expand(tt.in, lookup)
		var u kernel.UndefinedName
		switch {
		case tt.undefined != "" && (!errors.As(err, &u) || string(u) != tt.undefined):
			t.Errorf("Expand(%q) = %q, %v; want an error naming %s", tt.in, got, err, tt.undefined)
		case tt.undefined == "" && (err != nil || got != tt.want):
			t.Errorf("Expand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestSetAndExpand: parameters set in the session or given in the
// environment expand in every command; an option's value may hold "=";
// an undefined name is an error naming it and leaves the session as it was.
func TestSetAndExpand(t *testing.T) {
	t.Setenv("PROFLENS_TEST_PROFILE", "demo:profvis-toy")
	s := kernel.NewSession(t.TempDir(), lang.Table())
	code := "set WHO \"a b\"\nset N 2\nload $PROFLENS_TEST_PROFILE as toy\necho ${WHO}c $$N\ntop n=$N focus=inhale$\nset N 1\ntop n=${N}"
	rec, err := lang.Run(t, s, code)
	if err != nil {
		t.Fatal(err)
	}
	b := rec.Bundles()
	if got := rec.Stdout("stdout"); got != "a bc $N\n" {
		t.Errorf("echo printed %q, want %q", got, "a bc $N\n")
	}
	rows := func(i int) int { return len(b[i]["application/json"].(map[string]any)["rows"].([]map[string]any)) }
	if len(b) != 3 || rows(1) != 2 || rows(2) != 1 {
		t.Fatalf("got %d bundles, want load, top n=2 (2 rows), top n=1 (1 row)", len(b))
	}
	if s.Get("toy") == nil {
		t.Errorf("load $PROFLENS_TEST_PROFILE as toy loaded no toy")
	}
	// The environment is a default: set wins.
	if _, err := lang.Run(t, s, "set PROFLENS_TEST_PROFILE nothing-here\nload $PROFLENS_TEST_PROFILE"); err == nil || !strings.Contains(err.Error(), "nothing-here") {
		t.Errorf("load after set: error %v, want one about nothing-here", err)
	}
	_, err = lang.Run(t, s, "echo before\nlevel 1 where=$NOPE_NOT_SET")
	if err == nil || !strings.Contains(err.Error(), "$NOPE_NOT_SET") || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("undefined name: error %v, want one naming $NOPE_NOT_SET at line 2", err)
	}
	if s.Get("toy").State() != nil {
		t.Errorf("a failed expansion changed the profile's levels")
	}
}

func TestSetSettings(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), lang.Table())
	if _, err := lang.Run(t, s, "set pictures=both max=4MiB\nset V 1"); err != nil {
		t.Fatal(err)
	}
	if st := s.Settings; st.Pictures != kernel.PicturesBoth || st.MaxOutput != 4<<20 || st.Params["V"] != "1" {
		t.Errorf("settings = %+v, want pictures=both, max=4MiB, V=1", st)
	}
	rec, err := lang.Run(t, s, "set")
	if err != nil {
		t.Fatal(err)
	}
	plain := rec.Bundles()[0]["text/plain"].(string)
	for _, want := range []string{"pictures     both", "max", "4MB", "interactive  false", "$V           1"} {
		if !strings.Contains(plain, want) {
			t.Errorf("set lists\n%s\nwant %q in it", plain, want)
		}
	}
	for _, tc := range []struct{ code, want string }{
		{"set pictures=png", "pictures"},
		{"set max=lots", "max=lots"},
		{"set 1X y", `"1X" is not a parameter name`},
		{"set X", "give a NAME and one VALUE"},
		{"set X y z", "too many arguments"},
		{"set pictures=svg max=0", "max=0"},
	} {
		if _, err := lang.Run(t, s, tc.code); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.code, err, tc.want)
		}
	}
	if s.Settings.Pictures != kernel.PicturesBoth {
		t.Errorf("a failed set changed pictures to %s", s.Settings.Pictures)
	}
}
