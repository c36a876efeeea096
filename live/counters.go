package live

import (
	"encoding/json"
	"fmt"

	"github.com/proflens/proflens/agent"
	"github.com/proflens/proflens/analysis"
)

// countersProfile turns the agent's counters (agent.Counters, JSON) into
// a window: one sample, the frame "counters", one value type per counter.
// A count that only grows shows its increase since the last reading
// (since the agent started, at the first), a gauge its level; prev holds
// the last readings and is updated.
func countersProfile(body []byte, prev map[string]int64) (*analysis.Profile, error) {
	var c agent.Counters
	if err := json.Unmarshal(body, &c); err != nil {
		return nil, fmt.Errorf("the agent's counters are not JSON: %w", err)
	}
	if len(c.Counters) == 0 {
		return nil, fmt.Errorf("the program registered no counters (agent.Count, agent.Gauge)")
	}
	types := make([]analysis.ValueType, len(c.Counters))
	values := make([]int64, len(c.Counters))
	for i, v := range c.Counters {
		types[i] = analysis.ValueType{Type: v.Name, Unit: "count"}
		values[i] = v.Value
		if !v.Gauge {
			values[i] -= prev[v.Name]
		}
		prev[v.Name] = v.Value
	}
	b := analysis.NewBuilder("counters", types...)
	b.Add(b.Stack([]int32{b.Frame(analysis.Frame{Name: "counters"})}), values, 0, false, "", nil)
	p := b.Finish()
	p.Comment = append(p.Comment, "the program's counters: counts as their increase since the last reading, gauges as their level")
	return p, nil
}
