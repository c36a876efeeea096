package jupyter

import (
	"encoding/json"
	"fmt"
	"time"
)

var emptyObject = []byte("{}")

// header returns a new JSON header of type msgType in the kernel's session.
func (k *Kernel) header(msgType string) []byte {
	h := Header{
		MsgID: newID(), Session: k.session, Username: k.user,
		Date:    time.Now().UTC().Format("2006-01-02T15:04:05.000000Z"),
		MsgType: msgType, Version: ProtocolVersion,
	}
	b, _ := json.Marshal(h) // a struct of strings always marshals
	return b
}

// frames builds a signed message; parent's raw header is echoed as received.
func (k *Kernel) frames(ids [][]byte, parent *Message, msgType string, content any) [][]byte {
	c, err := json.Marshal(content)
	if err != nil {
		k.log.Error("marshal content", "msg_type", msgType, "err", err)
		c = emptyObject
	}
	p := emptyObject
	if parent != nil {
		p = parent.RawHeader
	}
	return k.sign.encode(ids, k.header(msgType), p, emptyObject, c)
}

// reply sends msgType with content to the requester of req on r.
func (k *Kernel) reply(r *router, req *Message, msgType string, content any) {
	f := k.frames(req.Identities, req, msgType, content)
	if err := r.send(f); err != nil {
		k.log.Warn("send reply failed", "msg_type", msgType, "err", err)
	}
}

// publish queues msgType for every iopub subscriber with the conventional
// topic kernel.<session>.<msg_type>; it never blocks.
func (k *Kernel) publish(parent *Message, msgType string, content any) {
	k.iopub.broadcast(k.outgoing(parent, msgType, content))
}

func (k *Kernel) publishStatus(parent *Message, state string) {
	o := k.outgoing(parent, "status", map[string]string{"execution_state": state})
	o.idle = state == "idle"
	k.iopub.broadcast(o)
}

func (k *Kernel) outgoing(parent *Message, msgType string, content any) outgoing {
	topic := [][]byte{[]byte("kernel." + k.session + "." + msgType)}
	o := outgoing{frames: k.frames(topic, parent, msgType, content), rank: rankOf(msgType)}
	if parent != nil && parent.Header.MsgType == "execute_request" {
		o.cell = parent
	}
	return o
}

// dropNotice is the stderr line that tells a front end, in the cell, how many
// of the cell's messages its iopub queue dropped.
func (k *Kernel) dropNotice(cell *Message, n int) [][]byte {
	text := fmt.Sprintf("proflens: %d messages of this cell's output were dropped: this front end did not read them fast enough\n", n)
	return k.outgoing(cell, "stream", map[string]string{"name": "stderr", "text": text}).frames
}
