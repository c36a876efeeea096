package store

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// pyroscope is a client of Grafana Pyroscope's query API: Connect unary
// calls of querier.v1.QuerierService, protocol buffers both ways
// (querier/v1/querier.proto and types/v1/types.proto of the
// github.com/grafana/pyroscope/api module; times in Unix milliseconds,
// both ends inclusive). SelectMergeProfile answers google.v1.Profile,
// which is pprof's profile.proto: its body is the pprof bytes.
type pyroscope struct{ *conn }

const querier = "/querier.v1.QuerierService/"

// call sends a request message to method and returns the answer's bytes.
// A Connect error (a status other than 200, a JSON body with code and
// message) becomes an error quoting them.
func (p *pyroscope) call(ctx context.Context, method string, req message, max int64) ([]byte, error) {
	h := http.Header{"Content-Type": {"application/proto"}, "Connect-Protocol-Version": {"1"}}
	resp, body, err := p.post(ctx, querier+method, h, req, max)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, p.errorf(method, "the store answered %s", connectError(resp.Status, body))
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/proto" {
		return nil, p.errorf(method, "the store answered %q, expected application/proto: is %s a Pyroscope server?", ct, p.src.Host)
	}
	return body, nil
}

// connectError quotes a Connect error body ({"code":…,"message":…}), or
// the start of whatever else came with the status. Pyroscope's query
// frontend passes on its querier's error body as the message: the
// innermost message is the one that explains.
func connectError(status string, body []byte) string {
	var e struct{ Code, Message string }
	if json.Unmarshal(body, &e) == nil && e.Code != "" {
		for inner := e; json.Unmarshal([]byte(inner.Message), &inner) == nil && inner.Code != ""; {
			e.Message = inner.Message
		}
		return fmt.Sprintf("%s (%s): %s", status, e.Code, e.Message)
	}
	text := strings.TrimSpace(string(body))
	if len(text) > 200 {
		text = text[:200] + "…"
	}
	if text == "" {
		return status
	}
	return status + ": " + text
}

// millis gives the inclusive millisecond range of [from, to); zero times
// give zero (for discovery: what the ingesters hold).
func millis(from, to time.Time) (int64, int64) {
	if from.IsZero() || to.IsZero() {
		return 0, 0
	}
	return from.UnixMilli(), to.UnixMilli() - 1
}

func (p *pyroscope) Merge(ctx context.Context, q Query, from, to time.Time, max int64) ([]byte, error) {
	start, end := millis(from, to)
	req := message(nil).str(1, q.Type).str(2, q.Selector()).int(3, start).int(4, end)
	return p.call(ctx, "SelectMergeProfile", req, max)
}

func (p *pyroscope) Types(ctx context.Context, from, to time.Time) ([]string, error) {
	start, end := millis(from, to)
	body, err := p.call(ctx, "ProfileTypes", message(nil).int(1, start).int(2, end), listLimit)
	if err != nil {
		return nil, err
	}
	types, err := repeated(body, 1)
	var ids []string
	for _, t := range types {
		id, err2 := stringsOf(t, 1)
		if err = firstError(err, err2); len(id) > 0 {
			ids = append(ids, id[0])
		}
	}
	return ids, p.decoded("ProfileTypes", err)
}

func (p *pyroscope) Labels(ctx context.Context, from, to time.Time) ([]string, error) {
	start, end := millis(from, to)
	body, err := p.call(ctx, "LabelNames", message(nil).int(2, start).int(3, end), listLimit)
	if err != nil {
		return nil, err
	}
	names, err := stringsOf(body, 1)
	return names, p.decoded("LabelNames", err)
}

func (p *pyroscope) Values(ctx context.Context, name string, from, to time.Time) ([]string, error) {
	start, end := millis(from, to)
	body, err := p.call(ctx, "LabelValues", message(nil).str(1, name).int(3, start).int(4, end), listLimit)
	if err != nil {
		return nil, err
	}
	values, err := stringsOf(body, 1)
	return values, p.decoded("LabelValues", err)
}

// decoded wraps an error of decoding an answer of method.
func (c *conn) decoded(method string, err error) error {
	if err == nil {
		return nil
	}
	return c.errorf(method, "the answer is not the expected message: %w", err)
}

func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
