package jfr

import "fmt"

// decoded are the events the parser decodes field by field; it skips the
// others by their size.
var decoded = map[string]bool{
	"jdk.ExecutionSample": true, "profiler.WallClockSample": true, "profiler.Malloc": true, "profiler.Free": true,
	"jdk.ObjectAllocationInNewTLAB": true, "jdk.ObjectAllocationOutsideTLAB": true, "jdk.ObjectAllocationSample": true,
	"jdk.JavaMonitorEnter": true, "jdk.ThreadPark": true, "profiler.LiveObject": true, "jdk.ActiveSetting": true,
}

// pools follows the chain of constant pools from off, reading every entry.
func (c *checker) pools(off int) error {
	seen := map[int]bool{}
	for off > 0 {
		if off >= len(c.buf) || seen[off] {
			return fmt.Errorf("expected the chain of pools to stay in the chunk without a loop, found offset %d", off)
		}
		seen[off] = true
		c.pos = off
		if err := c.skip(4); err != nil { // size, type, start, duration
			return err
		}
		delta, err := c.varint()
		if err != nil {
			return err
		}
		if err := c.skip(1); err != nil { // flush
			return err
		}
		if err := c.pool(); err != nil {
			return err
		}
		if delta == 0 {
			return nil
		}
		off += int(int64(delta))
	}
	return nil
}

// pool reads one constant pool event's lists of entries.
func (c *checker) pool() error {
	n, err := c.count(2)
	if err != nil {
		return err
	}
	for range n {
		typ, err := c.varint()
		if err != nil {
			return err
		}
		cl := c.classes[int64(typ)]
		switch {
		case cl == nil:
			return fmt.Errorf("expected a type of the metadata, found %d", typ)
		case cl.name == "jdk.types.ChunkHeader":
			if c.pos += headerSize; c.pos > len(c.buf) {
				return errEnd
			}
			continue
		}
		k, err := c.count(1)
		if err != nil {
			return err
		}
		for range k {
			if _, err := c.varint(); err != nil { // the entry's id
				return err
			}
			if err := c.value(cl, 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// events reads the events after the header, each within its size.
func (c *checker) events() error {
	for c.pos = headerSize; c.pos < len(c.buf); {
		start := c.pos
		size, err := c.varint()
		if err != nil {
			return err
		}
		if size == 0 || size > uint64(len(c.buf)-start) {
			return fmt.Errorf("expected an event size within the chunk's %d bytes left, found %d", len(c.buf)-start, size)
		}
		end := start + int(size)
		typ, err := c.varint()
		if err != nil {
			return err
		}
		if cl := c.classes[int64(typ)]; cl != nil && decoded[cl.name] {
			in := checker{buf: c.buf[:end], pos: c.pos, classes: c.classes}
			if err := in.value(cl, 0); err != nil {
				c.pos = in.pos
				return fmt.Errorf("%s: %w", cl.name, err)
			}
		}
		c.pos = end
	}
	return nil
}

// value reads a value of class cl, as the parser reads it: references as
// numbers, int, long, short and float as varints, boolean as a byte,
// strings, and the fields of other classes in turn.
func (c *checker) value(cl *class, depth int) error {
	for _, f := range cl.fields {
		n := 1
		if f.array {
			var err error
			if n, err = c.count(1); err != nil {
				return err
			}
		}
		for range n {
			if err := c.one(f, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// one reads one value of field f.
func (c *checker) one(f field, depth int) error {
	if f.refer {
		_, err := c.varint()
		return err
	}
	cl := c.classes[f.typ]
	if cl == nil {
		return fmt.Errorf("expected a type of the metadata, found %d", f.typ)
	}
	switch cl.name {
	case "int", "long", "short", "float":
		_, err := c.varint()
		return err
	case "boolean":
		if c.pos++; c.pos > len(c.buf) {
			return errEnd
		}
		return nil
	case "java.lang.String":
		_, err := c.str()
		return err
	}
	if len(cl.fields) == 0 || depth >= 8 {
		return fmt.Errorf("expected a type the parser reads, found %s", cl.name)
	}
	return c.value(cl, depth+1)
}
