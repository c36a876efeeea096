package kernel_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/kernel"
)

var nonFinite = []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "infinity", "1e999", "NaN%"}

func TestParseFloat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
	}{{"10", 10}, {"0.5", 0.5}, {"1%", 0.01}, {"-2", -2}, {"1e3", 1000}} {
		if got, err := kernel.ParseFloat(tc.in); err != nil || got != tc.want {
			t.Errorf("ParseFloat(%q) = %v, %v, want %v", tc.in, got, err, tc.want)
		}
	}
	for _, in := range append(nonFinite, "x", "", "%") {
		if got, err := kernel.ParseFloat(in); err == nil {
			t.Errorf("ParseFloat(%q) = %v, want an error", in, got)
		}
	}
	if _, err := kernel.ParseFloat("NaN"); !errors.Is(err, kernel.ErrNotFinite) {
		t.Errorf("ParseFloat(NaN) = %v, want kernel.ErrNotFinite", err)
	}
}

func TestParseDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{{"1.5", 1500 * time.Millisecond}, {"250ms", 250 * time.Millisecond}, {"1m30s", 90 * time.Second}} {
		if got, err := kernel.ParseDuration(tc.in); err != nil || got != tc.want {
			t.Errorf("ParseDuration(%q) = %v, %v, want %v", tc.in, got, err, tc.want)
		}
	}
	for _, in := range append(nonFinite, "1e10", "soon") { // 1e10 s is beyond time.Duration
		if got, err := kernel.ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q) = %v, want an error", in, got)
		}
	}
}

// TestNonFiniteOptions: every numeric or duration option of every command
// refuses NaN and the infinities with a usage error that says so, and the
// helpers refuse them for options of no declared kind.
func TestNonFiniteOptions(t *testing.T) {
	checked := 0
	for _, c := range lang.Table().Commands() {
		line := c.Name
		for _, a := range c.Args {
			if !a.Optional {
				line += " 1"
			}
		}
		for _, o := range c.AllOptions() {
			if o.Kind != kernel.KindNumber && o.Kind != kernel.KindDuration {
				continue
			}
			for _, v := range []string{"NaN", "Inf", "-Inf"} {
				checked++
				code := line + " " + o.Name + "=" + v
				_, err := lang.Run(t, nil, code)
				if err == nil || jerr(t, err).Name != "UsageError" || !strings.Contains(err.Error(), "is not a finite") {
					t.Errorf("%s: %v, want a usage error saying %s=%s is not a finite number", code, err, o.Name, v)
				}
			}
		}
	}
	if checked < 10 {
		t.Errorf("checked only %d numeric options", checked)
	}
	got := probe(t)
	s := kernel.NewSession(t.TempDir(), lang.Table())
	s.Add(&kernel.Loaded{Name: "cpu"})
	for _, v := range nonFinite {
		if _, err := lang.Run(t, s, "probe x min="+v); err != nil {
			t.Fatal(err)
		}
		if f, err := got.Float("min"); err == nil || !strings.Contains(err.Error(), "min="+v) {
			t.Errorf("Float(min=%s) = %v, %v, want an error naming the option", v, f, err)
		}
	}
	for _, v := range []string{"NaN", "Inf", "-Inf", "NaNMiB", "InfGB", "1e999"} {
		if _, err := lang.Run(t, nil, "load demo:profvis-toy limit="+v); err == nil || !strings.Contains(err.Error(), "not a size") {
			t.Errorf("load limit=%s: %v, want not a size", v, err)
		}
	}
}
