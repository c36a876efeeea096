package jfr

import (
	"errors"
	"fmt"
	"strconv"
)

// check walks a chunk's structure before the parser sees it: the metadata,
// the chain of constant pools and the events the parser decodes. The parser
// allocates as much as the counts it reads announce (a string of 2^32
// characters, a pool of 2^32 entries) and follows the pools' chain without
// looking for a cycle, so a damaged chunk could take all the memory or
// never end; check refuses any count larger than the bytes left and any
// chain that loops or leaves the chunk, reading the bytes as the parser
// reads them. It returns the offset (in the chunk) of the first problem.
func check(buf []byte, metaOff, poolOff int) (int, error) {
	c := checker{buf: buf}
	if err := c.metadata(metaOff); err != nil {
		return c.pos, fmt.Errorf("metadata: %w", err)
	}
	if err := c.pools(poolOff); err != nil {
		return c.pos, fmt.Errorf("constant pool: %w", err)
	}
	if err := c.events(); err != nil {
		return c.pos, fmt.Errorf("event: %w", err)
	}
	return 0, nil
}

// class is a type of the chunk's metadata.
type class struct {
	name   string
	fields []field
}

type field struct {
	typ          int64
	array, refer bool // an array; a reference into a constant pool
}

type checker struct {
	buf     []byte
	pos     int
	strings []string
	classes map[int64]*class
}

var (
	errEnd   = errors.New("expected more bytes, the chunk ends")
	errCount = errors.New("expected a count no larger than the bytes left")
)

// varint reads an unsigned LEB128 number of at most 9 bytes, as JFR writes
// them (the ninth byte whole).
func (c *checker) varint() (uint64, error) {
	var v uint64
	for shift := uint(0); shift <= 56; shift += 7 {
		if c.pos >= len(c.buf) {
			return 0, errEnd
		}
		b := c.buf[c.pos]
		c.pos++
		if shift == 56 {
			return v | uint64(b)<<56, nil
		}
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v, nil
		}
	}
	return v, nil
}

// count reads a count of items of at least per bytes each.
func (c *checker) count(per int) (int, error) {
	n, err := c.varint()
	if err != nil {
		return 0, err
	}
	if n > uint64(len(c.buf)-c.pos)/uint64(per) {
		return 0, errCount
	}
	return int(n), nil
}

// skip reads n varints.
func (c *checker) skip(n int) error {
	for range n {
		if _, err := c.varint(); err != nil {
			return err
		}
	}
	return nil
}

// str reads a string: null, empty, UTF-8 or Latin-1 bytes, or UTF-16 units.
func (c *checker) str() (string, error) {
	if c.pos >= len(c.buf) {
		return "", errEnd
	}
	enc := c.buf[c.pos]
	c.pos++
	switch enc {
	case 0, 1:
		return "", nil
	case 3, 5:
		n, err := c.count(1)
		if err != nil {
			return "", err
		}
		c.pos += n
		return string(c.buf[c.pos-n : c.pos]), nil
	case 4:
		n, err := c.count(1)
		if err != nil {
			return "", err
		}
		r := make([]rune, n)
		for i := range r {
			v, err := c.varint()
			if err != nil {
				return "", err
			}
			r[i] = rune(v)
		}
		return string(r), nil
	}
	return "", fmt.Errorf("expected a string encoding (0, 1, 3, 4 or 5), found %d", enc)
}

// metadata reads the metadata event and its classes.
func (c *checker) metadata(off int) error {
	c.pos = off
	if err := c.skip(5); err != nil { // size, type, start, duration, id
		return err
	}
	n, err := c.count(1)
	if err != nil {
		return err
	}
	c.strings = make([]string, n)
	for i := range c.strings {
		if c.strings[i], err = c.str(); err != nil {
			return err
		}
	}
	c.classes = map[int64]*class{}
	_, _, kids, err := c.element()
	if err != nil {
		return err
	}
	for range kids {
		name, _, classes, err := c.element()
		switch {
		case err != nil:
			return err
		case name == "region":
			continue // the parser reads no more of it
		case name != "metadata":
			return fmt.Errorf("expected a metadata or region element, found %q", name)
		}
		for range classes {
			if err := c.class(); err != nil {
				return err
			}
		}
	}
	return nil
}

// element reads an element's name, attributes and number of children.
func (c *checker) element() (string, map[string]string, int, error) {
	name, err := c.index()
	if err != nil {
		return "", nil, 0, err
	}
	n, err := c.count(2)
	if err != nil {
		return "", nil, 0, err
	}
	attrs := make(map[string]string, n)
	for range n {
		k, err := c.index()
		if err != nil {
			return "", nil, 0, err
		}
		if attrs[k], err = c.index(); err != nil {
			return "", nil, 0, err
		}
	}
	kids, err := c.count(3)
	return name, attrs, kids, err
}

// index reads an index into the metadata's strings.
func (c *checker) index() (string, error) {
	i, err := c.varint()
	if err != nil {
		return "", err
	}
	if i >= uint64(len(c.strings)) {
		return "", fmt.Errorf("expected a string index below %d, found %d", len(c.strings), i)
	}
	return c.strings[i], nil
}

// class reads a class element, its fields and their annotations.
func (c *checker) class() error {
	_, attrs, n, err := c.element()
	if err != nil {
		return err
	}
	id, err := strconv.ParseInt(attrs["id"], 10, 64)
	if err != nil {
		return fmt.Errorf("expected a class id, found %q", attrs["id"])
	}
	cl := &class{name: attrs["name"]}
	for range n {
		name, fa, kids, err := c.element()
		if err != nil {
			return err
		}
		if name == "field" {
			typ, err := strconv.ParseInt(fa["class"], 10, 64)
			if err != nil {
				return fmt.Errorf("expected a field's class id, found %q", fa["class"])
			}
			cl.fields = append(cl.fields, field{typ: typ, array: fa["dimension"] == "1", refer: fa["constantPool"] == "true"})
		}
		for range kids {
			if _, _, _, err := c.element(); err != nil {
				return err
			}
		}
	}
	c.classes[id] = cl
	return nil
}
