// Package jupyter is proflens's Jupyter protocol layer (messaging protocol
// 5.3): the wire format with HMAC-SHA256 signatures, the five ZeroMQ
// channels, heartbeat, status and the message handlers. It serves a Handler
// and knows nothing about profiles. Only this package imports zmq4.
//
// Every connection passes the wire guard first (guard.go): handshakes on
// their own goroutine within a deadline, failed ones closed at once, and
// frames over the channel's size limits refused from their header (frame.go).
//
// Goroutines, each owning what it touches:
//   - shell reader: receive, verify, queue; one shell worker runs the queued
//     requests in order (Handler.Execute is never called concurrently);
//   - control: interrupt, shutdown and kernel_info served at once, even
//     while a cell runs;
//   - heartbeat: a REP echo, never blocked by execution;
//   - iopub: a fan-out with one bounded queue and writer per subscriber, so
//     publishing never blocks and a stalled front end only loses its own
//     messages (stream text first, status last, each cell told how many).
//
// Invariants: every request is wrapped in status busy … idle (control
// included); execute publishes execute_input, the handler's outputs in
// order, then replies; unsigned, badly signed, malformed and replayed
// messages are logged and dropped, never executed (with an empty key, which
// the spec allows, nothing is signed and the kernel warns at start); a panic
// in the Handler becomes an error reply; replies echo the request header
// byte for byte; no list or object field is ever null.
//
// Specification: https://jupyter-client.readthedocs.io/en/stable/messaging.html
package jupyter
