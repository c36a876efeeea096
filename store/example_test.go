package store_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/proflens/proflens/store"
	"github.com/proflens/proflens/store/storetest"
)

func ExampleParseURL() {
	// The kernel's word rules leave label values unquoted; they read the same.
	src, err := store.ParseURL(`pyroscope://127.0.0.1/process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name=checkout,pod=~checkout-.*}`)
	fmt.Println(src, err)
	fmt.Println(src.Store(), src.Query.Type, src.Query.Selector())
	// Output:
	// pyroscope://127.0.0.1:4040/process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="checkout",pod=~"checkout-.*"} <nil>
	// pyroscope://127.0.0.1:4040 process_cpu:cpu:nanoseconds:cpu:nanoseconds {service_name="checkout",pod=~"checkout-.*"}
}

func ExampleParseTime() {
	now := time.Date(2024, 5, 14, 15, 0, 0, 0, time.UTC)
	for _, s := range []string{"2024-05-14T14:00:00Z", "1715695200", "now-1h"} {
		t, _ := store.ParseTime(s, now)
		fmt.Println(t.UTC().Format(time.RFC3339))
	}
	// Output:
	// 2024-05-14T14:00:00Z
	// 2024-05-14T14:00:00Z
	// 2024-05-14T14:00:00Z
}

// ExampleFetch reads a series of 10 s steps from a fake Pyroscope that
// answers what a real one answered (store/testdata/pyroscope.json).
func ExampleFetch() {
	r, err := storetest.LoadReplay("testdata/pyroscope.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	src, _ := store.ParseURL("pyroscope://" + strings.TrimPrefix(srv.URL, "http://") +
		`/process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name="phased"}`)
	from := time.Date(2024, 5, 14, 14, 0, 0, 0, time.UTC)
	p, err := store.Fetch(context.Background(), store.Open(src, 0), src,
		store.Range{From: from, To: from.Add(time.Minute), Step: 10 * time.Second}, store.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Format, p.ValueTypes[0], len(p.Intervals)-1, "steps")
	for i, name := range p.IntervalNames {
		fmt.Println(name, p.Intervals[i+1]-p.Intervals[i], "samples")
	}
	// Output:
	// series {cpu nanoseconds} 6 steps
	// 2024-05-14T14:00:00Z 2 samples
	// 2024-05-14T14:00:10Z 2 samples
	// 2024-05-14T14:00:20Z 2 samples
	// 2024-05-14T14:00:30Z 2 samples
	// 2024-05-14T14:00:40Z 2 samples
	// 2024-05-14T14:00:50Z 2 samples
}
