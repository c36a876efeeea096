// Package jupyter is proflens's Jupyter protocol layer (messaging protocol
// 5.3): the wire format with HMAC-SHA256 signatures, the five ZeroMQ
// channels, heartbeat, status and the message handlers. It serves a Handler
// and knows nothing about profiles. It speaks ZMTP 3.0 itself on the
// kernel's side (guard.go, frame.go, peer.go); zmq4, the only package that
// imports it, plays the front end in its tests.
//
// Every connection passes the wire guard first (guard.go): a seat on its
// channel (admission.go: a cap per channel; the connections that have never
// sent a correctly signed message are evicted first, and what they send is
// bounded in all and in time), the handshake on its own goroutine within a
// deadline, failed ones closed at once, and frames over the channel's size
// limits refused from their header (frame.go). Every write has a deadline
// and every connection its own writer: a peer that stops reading is reset
// and blocks no one.
//
// Goroutines, each owning what it touches:
//   - shell, control and stdin are routers (router.go): a reader per
//     connection receives and verifies, a writer per connection sends; a
//     reply goes to the connection its request came on, whatever identity
//     the peer claims;
//   - shell: one worker runs the queued requests in order (Handler.Execute
//     is never called concurrently);
//   - control: interrupt, shutdown and kernel_info served at once, even
//     while a cell runs;
//   - heartbeat: each connection echoes its own pings, never blocked by
//     execution or by another connection;
//   - iopub: a fan-out with one bounded queue and writer per subscriber, so
//     publishing never blocks and a stalled front end only loses its own
//     messages (stream text first, status last, each cell told how many).
//
// Comms (comm.go, widget.go): the kernel opens a jupyter.widget comm per
// widget an Execute asks for (WidgetOpener) and serves the widget
// messaging protocol 2.1 on it: state with binary buffers, update and
// echo_update, request_state, custom messages to the widget's handler
// (on the shell goroutine, interruptible, in busy … idle), and the
// jupyter.widget.control comm's request_states. Comm messages over
// maxCommBytes, malformed ones and those for comms the kernel does not
// have are refused with a logged reason; at most maxWidgets widgets are
// kept.
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
