package live

// allocate shares budget (seconds of cost per second) among kinds by
// weighted max-min fairness: each kind is offered a share of what is left
// in proportion to its weight; a kind needing less than its share gets its
// need, and what it leaves goes to the others, round after round; the
// kinds that need more than their share split the rest by weight. So no
// kind gets more than it needs, a higher weight never gets less than its
// proportion, and the rates sum to at most budget. need and weight are per
// kind; a kind with no need (dropped) gets nothing.
func allocate(budget float64, need, weight []float64) []float64 {
	rate := make([]float64, len(need))
	var open []int
	for i, n := range need {
		if n > 0 && weight[i] > 0 {
			open = append(open, i)
		}
	}
	left := budget
	for len(open) > 0 {
		var w float64
		for _, i := range open {
			w += weight[i]
		}
		var still []int
		for _, i := range open {
			if need[i] <= left*weight[i]/w {
				rate[i] = need[i]
			} else {
				still = append(still, i)
			}
		}
		if len(still) == len(open) { // nobody satisfied: split what is left
			for _, i := range open {
				rate[i] = left * weight[i] / w
			}
			break
		}
		for _, i := range open {
			if rate[i] > 0 {
				left -= rate[i]
			}
		}
		open = still
	}
	return rate
}
