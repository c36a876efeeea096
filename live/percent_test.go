package live

import "testing"

func TestPercent(t *testing.T) {
	for _, tt := range []struct {
		x    float64
		want string
	}{
		{0.1, "10%"}, {1, "100%"}, {0.0104, "1.04%"}, {0.01, "1%"}, {0.001, "0.1%"}, {0.0005, "0.05%"},
		{0.00001, "0.001%"}, {0, "0%"}, {0.143, "14.3%"}, {0.0077, "0.77%"}, {0.99999, "100%"},
		{0.0012345, "0.123%"}, {-0.02, "-2%"}, {1.5, "150%"}, {0.07, "7%"},
	} {
		if got := Percent(tt.x); got != tt.want {
			t.Errorf("Percent(%g) = %q, want %q", tt.x, got, tt.want)
		}
	}
}
