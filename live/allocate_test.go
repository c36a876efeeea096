package live

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestAllocate(t *testing.T) {
	w := []float64{1, 0.5, 0.25}
	tests := []struct {
		budget float64
		need   []float64
		want   []float64
	}{
		{0.01, []float64{0.002, 0.001, 0.001}, []float64{0.002, 0.001, 0.001}},    // all fit
		{0.01, []float64{0.02, 0.001, 0.001}, []float64{0.008, 0.001, 0.001}},     // the rest to the hungry
		{0.007, []float64{0.02, 0.02, 0.02}, []float64{0.004, 0.002, 0.001}},      // by weight
		{0.007, []float64{0.02, 0, 0.02}, []float64{0.007 * 0.8, 0, 0.007 * 0.2}}, // a dropped kind
	}
	// A kind of weight 0 gets nothing, also once the others are served.
	if got := allocate(0.01, []float64{0.002, 0.02}, []float64{1, 0}); got[0] != 0.002 || got[1] != 0 {
		t.Errorf("allocate(0.01, weights 1 and 0) = %v, want [0.002 0]", got)
	}
	for _, tt := range tests {
		got := allocate(tt.budget, tt.need, w)
		for i := range got {
			if math.Abs(got[i]-tt.want[i]) > 1e-12 {
				t.Errorf("allocate(%g, %v) = %v, want %v", tt.budget, tt.need, got, tt.want)
				break
			}
		}
	}
}

// TestAllocateProperties: on random needs, the rates sum to at most the
// budget (to the budget when some need is unmet), no kind gets more than
// it needs, and an unmet kind gets at least its weight's proportion of the
// budget.
func TestAllocateProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		n := 1 + r.IntN(6)
		need, weight := make([]float64, n), make([]float64, n)
		var wsum float64
		for i := range need {
			if r.IntN(5) > 0 {
				need[i] = r.ExpFloat64() * 0.01
			}
			weight[i] = math.Pow(0.5, float64(i))
			if need[i] > 0 {
				wsum += weight[i]
			}
		}
		budget := r.Float64() * 0.03
		rate := allocate(budget, need, weight)
		var sum float64
		unmet := false
		for i := range rate {
			sum += rate[i]
			if rate[i] > need[i]+1e-15 {
				t.Fatalf("allocate(%g, %v) = %v: kind %d gets more than it needs", budget, need, rate, i)
			}
			if rate[i] < need[i]-1e-15 {
				unmet = true
				if rate[i] < budget*weight[i]/wsum-1e-15 {
					t.Fatalf("allocate(%g, %v) = %v: kind %d gets less than its weight's share", budget, need, rate, i)
				}
			}
		}
		if sum > budget+1e-12 || (unmet && sum < budget-1e-12) {
			t.Fatalf("allocate(%g, %v) = %v: sum %g", budget, need, rate, sum)
		}
	}
}
