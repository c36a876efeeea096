package jupyter

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/transport"
)

// The kernel's zmq4 sockets listen on "guarded-tcp://" and "guarded-ipc://"
// endpoints: zmq4 transports whose listener is a guardListener. zmq4 hands a
// transport's Listen nothing but the socket's context, so the channel's
// policy and the kernel's logger travel in it (withGuard).

const guardedPrefix = "guarded-"

type guardKey struct{}

type guardSpec struct {
	pol policy
	log *slog.Logger
}

// withGuard returns ctx carrying the policy a guarded transport applies to
// the socket created with it.
func withGuard(ctx context.Context, pol policy, log *slog.Logger) context.Context {
	return context.WithValue(ctx, guardKey{}, guardSpec{pol, log})
}

// guardedTransport is zmq4's net transport with the guard on its listener.
type guardedTransport struct {
	network string // "tcp" or "unix"
	plain   transport.Transport
}

func init() {
	for name, network := range map[string]string{"tcp": "tcp", "ipc": "unix"} {
		t := guardedTransport{network: network, plain: transport.New(network)}
		if err := zmq4.RegisterTransport(guardedPrefix+name, t); err != nil {
			panic(err)
		}
	}
}

func (t guardedTransport) Dial(ctx context.Context, d transport.Dialer, addr string) (net.Conn, error) {
	return t.plain.Dial(ctx, d, addr)
}

func (t guardedTransport) Addr(ep string) (string, error) { return t.plain.Addr(ep) }

func (t guardedTransport) Listen(ctx context.Context, addr string) (net.Listener, error) {
	spec, ok := ctx.Value(guardKey{}).(guardSpec)
	if !ok {
		return nil, errors.New("guarded transport: the socket's context has no policy (withGuard)")
	}
	return listenGuarded(t.network, addr, spec.pol, spec.log)
}

// listenGuarded listens on network ("tcp" or "unix") behind a guard. A stale
// socket file from an earlier kernel is removed first; nothing else is.
func listenGuarded(network, addr string, pol policy, log *slog.Logger) (*guardListener, error) {
	if network == "unix" {
		if fi, err := os.Lstat(addr); err == nil && fi.Mode()&os.ModeSocket != 0 {
			os.Remove(addr)
		}
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, err
	}
	return guard(ln, pol, log), nil
}

// splitEndpoint turns tcp://HOST:PORT or ipc://PATH into a net network and address.
func splitEndpoint(endpoint string) (network, addr string, err error) {
	scheme, addr, ok := strings.Cut(endpoint, "://")
	switch {
	case ok && scheme == "tcp":
		return "tcp", addr, nil
	case ok && scheme == "ipc":
		return "unix", addr, nil
	}
	return "", "", fmt.Errorf("endpoint %q: want tcp://HOST:PORT or ipc://PATH", endpoint)
}
