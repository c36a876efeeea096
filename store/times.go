package store

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseTime reads a time of a range: RFC 3339 (2024-05-14T14:00:00Z),
// Unix seconds (1715695200, a fraction allowed), or now, now-DURATION or
// now+DURATION, relative to now (DURATION in Go's syntax, plus d for
// days: now-1h, now-90m, now-2d). Relative times read the clock, so a
// notebook that must give the same bytes on every run uses the other two.
func ParseTime(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f >= 0 && f < 1e11 && !strings.ContainsAny(s, "eE") {
		sec := int64(f)
		return time.Unix(sec, int64((f-float64(sec))*1e9)).UTC(), nil
	}
	if rest, ok := strings.CutPrefix(s, "now"); ok {
		if rest == "" {
			return now, nil
		}
		if d, err := relative(rest); err == nil {
			return now.Add(d), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time: write RFC 3339 (2024-05-14T14:00:00Z), Unix seconds (1715695200) or now-1h", s)
}

// relative parses +D or -D, where D is a Go duration or a whole number of
// days (2d).
func relative(s string) (time.Duration, error) {
	if len(s) < 2 || s[0] != '+' && s[0] != '-' {
		return 0, fmt.Errorf("expected + or - and a duration")
	}
	sign := time.Duration(1)
	if s[0] == '-' {
		sign = -1
	}
	if days, ok := strings.CutSuffix(s[1:], "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 0 || n > 100_000 {
			return 0, fmt.Errorf("%q is not a number of days", days)
		}
		return sign * time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s[1:])
	return sign * d, err
}
