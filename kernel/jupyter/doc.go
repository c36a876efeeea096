// Package jupyter is proflens's Jupyter protocol layer (messaging protocol
// 5.3): the wire format with HMAC-SHA256 signatures, the five ZeroMQ
// channels, heartbeat, status and the message handlers. It serves a Handler
// and knows nothing about profiles. Only this package imports zmq4.
//
// Specification: https://jupyter-client.readthedocs.io/en/stable/messaging.html
package jupyter
