package jupyter

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
)

// ZMTP 3.x framing (rfc.zeromq.org/spec/23, /37). After the 64-octet
// greeting every frame is a flags octet, a size (one octet, or eight in
// network order when LONG is set) and a body of that size. A message is
// frames with MORE set then one without; a command (READY, PING, ...) is one
// frame with COMMAND set and MORE clear. Flag bits 7-3 are reserved, zero.
const (
	flagMore    = 0x01
	flagLong    = 0x02
	flagCommand = 0x04
	greetingLen = 64
)

// limits bound what a peer may send on one connection, like libzmq's
// ZMQ_MAXMSGSIZE: zmq4 allocates a frame's whole body as soon as it reads the
// header, so the header alone must decide.
type limits struct {
	message int64 // bytes in one message, all its frames together
	frames  int   // frames in one message
	command int64 // bytes in one command
}

// FrameError says why a frame header was refused.
type FrameError struct{ Msg string }

func (e *FrameError) Error() string { return "zmtp frame: " + e.Msg }

// framer follows the frames of one connection and refuses, from its header,
// a frame that breaks the framing or takes its message or command over lim.
type framer struct {
	lim    limits
	msg    int64 // bytes of the current message so far
	frames int   // frames of the current message so far
	more   bool  // the last data frame had MORE: its message goes on
}

// headerLen is the length of a frame header that starts with flags.
func headerLen(flags byte) int {
	if flags&flagLong != 0 {
		return 9
	}
	return 2
}

// check takes one whole frame header and returns the size of its body.
func (f *framer) check(h []byte) (int64, error) {
	flags := h[0]
	if flags&^(flagMore|flagLong|flagCommand) != 0 {
		return 0, &FrameError{fmt.Sprintf("flags %#02x: reserved bits set", flags)}
	}
	size := uint64(h[1])
	if flags&flagLong != 0 {
		size = binary.BigEndian.Uint64(h[1:9])
	}
	if flags&flagCommand != 0 {
		return f.command(flags, size)
	}
	f.frames++
	if f.frames > f.lim.frames {
		return 0, &FrameError{fmt.Sprintf("message of more than %d frames", f.lim.frames)}
	}
	if size > uint64(f.lim.message-f.msg) {
		return 0, &FrameError{fmt.Sprintf("message of at least %d bytes: the limit is %d", addSat(f.msg, size), f.lim.message)}
	}
	f.msg += int64(size)
	f.more = flags&flagMore != 0
	if !f.more {
		f.msg, f.frames = 0, 0
	}
	return int64(size), nil
}

func (f *framer) command(flags byte, size uint64) (int64, error) {
	switch {
	case flags&flagMore != 0:
		return 0, &FrameError{"command frame with MORE set"}
	case f.more:
		return 0, &FrameError{"command frame inside a message"}
	case size > uint64(f.lim.command):
		return 0, &FrameError{fmt.Sprintf("command of %d bytes: the limit is %d", size, f.lim.command)}
	}
	return int64(size), nil
}

// addSat is msg+size, or the largest uint64 when that overflows.
func addSat(msg int64, size uint64) uint64 {
	if s := uint64(msg) + size; s >= size {
		return s
	}
	return ^uint64(0)
}

// frameReader reads the frame headers of one connection through its framer:
// a refused header is never followed by an allocation for its body.
type frameReader struct {
	r   io.Reader
	f   framer
	hdr [9]byte
}

// next reads and checks the next frame header and returns its flags and
// body size. The stream may end cleanly (io.EOF) between frames only.
func (fr *frameReader) next() (byte, int64, error) {
	if _, err := io.ReadFull(fr.r, fr.hdr[:2]); err != nil {
		return 0, 0, err
	}
	n := headerLen(fr.hdr[0])
	if _, err := io.ReadFull(fr.r, fr.hdr[2:n]); err != nil {
		return 0, 0, unexpected(err)
	}
	size, err := fr.f.check(fr.hdr[:n])
	return fr.hdr[0], size, err
}

// body reads a frame body of size octets.
func (fr *frameReader) body(size int64) ([]byte, error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(fr.r, b); err != nil {
		return nil, unexpected(err)
	}
	return b, nil
}

// unexpected turns io.EOF inside a frame into io.ErrUnexpectedEOF.
func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// writeFrames writes frames as one message (MORE on all but the last), each
// frame's flags also carrying flags (flagCommand for a command), in one
// write where w allows it.
func writeFrames(w io.Writer, flags byte, frames [][]byte) error {
	hdrs := make([]byte, 0, 9*len(frames))
	bufs := make(net.Buffers, 0, 2*len(frames))
	for i, f := range frames {
		fl := flags
		if i < len(frames)-1 {
			fl |= flagMore
		}
		at := len(hdrs)
		if len(f) > 255 {
			hdrs = binary.BigEndian.AppendUint64(append(hdrs, fl|flagLong), uint64(len(f)))
		} else {
			hdrs = append(hdrs, fl, byte(len(f)))
		}
		bufs = append(bufs, hdrs[at:], f)
	}
	_, err := bufs.WriteTo(w)
	return err
}
