package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// parca is a client of Parca's query API, parca.query.v1alpha1.QueryService
// (proto/parca/query/v1alpha1/query.proto), over gRPC-Web on HTTP/1.1,
// which Parca serves on its HTTP port beside its UI (its REST gateway
// answers 404 in v0.21). Times are google.protobuf.Timestamp, both ends
// inclusive.
type parca struct{ *conn }

const queryService = "/parca.query.v1alpha1.QueryService/"

// call sends a request message to method as one gRPC-Web frame and returns
// the message of the answer. The gRPC status comes in the response headers
// (an answer without a message) or in the trailer frame that ends the body.
func (p *parca) call(ctx context.Context, method string, req message, max int64) ([]byte, error) {
	h := http.Header{"Content-Type": {"application/grpc-web+proto"}, "X-Grpc-Web": {"1"}}
	resp, body, err := p.post(ctx, queryService+method, h, frame(0, req), max+5+1024)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, p.errorf(method, "the store answered %s", connectError(resp.Status, body))
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/grpc-web") {
		return nil, p.errorf(method, "the store answered %q, expected application/grpc-web: is %s a Parca server?",
			resp.Header.Get("Content-Type"), p.src.Host)
	}
	msg, trailer, err := unframe(body)
	if err != nil {
		return nil, p.errorf(method, "the answer is not gRPC-Web: %w", err)
	}
	if err := grpcStatus(resp.Header, trailer); err != nil {
		return nil, p.errorf(method, "the store answered %w", err)
	}
	if int64(len(msg)) > max {
		return nil, p.errorf(method, "the answer is longer than the %d bytes still allowed (set limit= to raise it)", max)
	}
	return msg, nil
}

// frame gives a gRPC-Web frame: a flag byte, the length (4 bytes, big
// endian), the data.
func frame(flag byte, data []byte) []byte {
	out := append([]byte{flag}, binary.BigEndian.AppendUint32(nil, uint32(len(data)))...)
	return append(out, data...)
}

// unframe splits a gRPC-Web body into its message (the data frames, of
// which a unary answer has at most one) and its trailer frame's text.
func unframe(body []byte) (msg []byte, trailer string, err error) {
	for i := 0; i < len(body); {
		if len(body)-i < 5 {
			return nil, "", fmt.Errorf("byte %d: a frame header of 5 bytes, found %d", i, len(body)-i)
		}
		flag, n := body[i], int(binary.BigEndian.Uint32(body[i+1:]))
		if n > len(body)-i-5 {
			return nil, "", fmt.Errorf("byte %d: a frame of %d bytes runs past the end", i, n)
		}
		data := body[i+5 : i+5+n]
		switch {
		case flag&0x80 != 0:
			trailer += string(data)
		case flag != 0:
			return nil, "", fmt.Errorf("byte %d: a compressed frame (flag %#x); none was asked for", i, flag)
		default:
			msg = append(msg, data...)
		}
		i += 5 + n
	}
	return msg, trailer, nil
}

// grpcStatus returns nil for status 0 (OK), else the status and message,
// read from the trailer frame or, when it has none, from the headers.
func grpcStatus(h http.Header, trailer string) error {
	status, msg := h.Get("Grpc-Status"), h.Get("Grpc-Message")
	for _, line := range strings.Split(trailer, "\r\n") {
		k, v, _ := strings.Cut(line, ":")
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "grpc-status":
			status = strings.TrimSpace(v)
		case "grpc-message":
			msg = strings.TrimSpace(v)
		}
	}
	if m, err := url.PathUnescape(msg); err == nil {
		msg = m
	}
	switch status {
	case "0":
		return nil
	case "":
		return fmt.Errorf("no gRPC status")
	}
	return fmt.Errorf("gRPC status %s (%s): %s", status, grpcCodes[status], msg)
}

// grpcCodes names the gRPC status codes.
var grpcCodes = map[string]string{"1": "canceled", "2": "unknown", "3": "invalid argument", "4": "deadline exceeded",
	"5": "not found", "7": "permission denied", "8": "resource exhausted", "9": "failed precondition",
	"12": "unimplemented", "13": "internal", "14": "unavailable", "16": "unauthenticated"}

// inclusive gives the last instant of [from, to) at Parca's millisecond
// resolution.
func inclusive(to time.Time) time.Time { return to.Add(-time.Millisecond) }

func (p *parca) Merge(ctx context.Context, q Query, from, to time.Time, max int64) ([]byte, error) {
	merge := message(nil).str(1, q.String()).timestamp(2, from).timestamp(3, inclusive(to))
	req := message(nil).int(1, 2 /* MODE_MERGE */).bytes(3, merge, true).int(5, 1 /* REPORT_TYPE_PPROF */)
	body, err := p.call(ctx, "Query", req, max)
	if err != nil {
		return nil, err
	}
	pprof, err := repeated(body, 6)
	if err != nil {
		return nil, p.decoded("Query", err)
	}
	if len(pprof) == 0 {
		return nil, nil // no profile in the range
	}
	return pprof[len(pprof)-1], nil
}

func (p *parca) Types(ctx context.Context, from, to time.Time) ([]string, error) {
	body, err := p.call(ctx, "ProfileTypes", nil, listLimit)
	if err != nil {
		return nil, err
	}
	types, err := repeated(body, 1)
	var ids []string
	for _, t := range types {
		id, err2 := parcaType(t)
		if err = firstError(err, err2); id != "" {
			ids = append(ids, id)
		}
	}
	return ids, p.decoded("ProfileTypes", err)
}

// parcaType gives a ProfileType as a query names it:
// name:sample_type:sample_unit:period_type:period_unit[:delta].
func parcaType(msg []byte) (string, error) {
	parts := make([]string, 5)
	delta := false
	err := fields(msg, func(f field) error {
		switch {
		case f.num >= 1 && f.num <= 5 && f.wire == wireBytes:
			parts[f.num-1] = string(f.data)
		case f.num == 6 && f.wire == wireVarint:
			delta = f.v != 0
		}
		return nil
	})
	id := strings.Join(parts, ":")
	if delta {
		id += ":delta"
	}
	return id, err
}

func (p *parca) Labels(ctx context.Context, from, to time.Time) ([]string, error) {
	body, err := p.call(ctx, "Labels", message(nil).timestamp(2, from).timestamp(3, inclusive(to)), listLimit)
	if err != nil {
		return nil, err
	}
	names, err := stringsOf(body, 1)
	return names, p.decoded("Labels", err)
}

func (p *parca) Values(ctx context.Context, name string, from, to time.Time) ([]string, error) {
	req := message(nil).str(1, name).timestamp(3, from).timestamp(4, inclusive(to))
	body, err := p.call(ctx, "Values", req, listLimit)
	if err != nil {
		return nil, err
	}
	values, err := stringsOf(body, 1)
	return values, p.decoded("Values", err)
}
