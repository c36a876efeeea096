package store

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
)

// Push writes profiles (pprof bytes, gzipped or not) to src's store as one
// series with the given labels ({name, value} pairs; __name__ names the
// profile, e.g. process_cpu). Each profile's time is its own TimeNanos, so
// profiles can be written after the fact. Pyroscope takes them through
// push.v1.PusherService/Push (JSON, the Connect protocol), Parca through
// profilestore.v1alpha1.ProfileStoreService/WriteRaw (gRPC-Web). The
// tests and the fleet demo fill local stores with it; the kernel only
// reads.
func Push(ctx context.Context, src Source, labels [][2]string, profiles ...[]byte) error {
	c := &conn{src: src, client: &http.Client{}, timeout: DefaultTimeout}
	if src.Kind == Parca {
		return pushParca(ctx, c, labels, profiles)
	}
	return pushPyroscope(ctx, c, labels, profiles)
}

func pushPyroscope(ctx context.Context, c *conn, labels [][2]string, profiles [][]byte) error {
	type pair struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	type sample struct {
		RawProfile string `json:"rawProfile"`
	}
	var series struct {
		Labels  []pair   `json:"labels"`
		Samples []sample `json:"samples"`
	}
	for _, l := range labels {
		series.Labels = append(series.Labels, pair{l[0], l[1]})
	}
	for _, p := range profiles {
		series.Samples = append(series.Samples, sample{base64.StdEncoding.EncodeToString(p)})
	}
	body, err := json.Marshal(map[string]any{"series": []any{series}})
	if err != nil {
		return err
	}
	const path = "/push.v1.PusherService/Push"
	resp, data, err := c.post(ctx, path, http.Header{"Content-Type": {"application/json"}}, body, listLimit)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = c.errorf(path, "the store answered %s", connectError(resp.Status, data))
	}
	return err
}

func pushParca(ctx context.Context, c *conn, labels [][2]string, profiles [][]byte) error {
	var set message
	for _, l := range labels {
		set = set.bytes(1, message(nil).str(1, l[0]).str(2, l[1]), true)
	}
	series := message(nil).bytes(1, set, true)
	for _, p := range profiles {
		series = series.bytes(2, message(nil).bytes(1, p, true), true)
	}
	const path = "/parca.profilestore.v1alpha1.ProfileStoreService/WriteRaw"
	h := http.Header{"Content-Type": {"application/grpc-web+proto"}, "X-Grpc-Web": {"1"}}
	resp, body, err := c.post(ctx, path, h, frame(0, message(nil).bytes(2, series, true)), listLimit)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return c.errorf(path, "the store answered %s", connectError(resp.Status, body))
	}
	_, trailer, err := unframe(body)
	if err == nil {
		err = grpcStatus(resp.Header, trailer)
	}
	if err != nil {
		return c.errorf(path, "the store answered %w", err)
	}
	return nil
}
