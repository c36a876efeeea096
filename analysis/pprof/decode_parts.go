package pprof

import (
	"context"
	"strconv"
)

// pbDecoder holds the tables of a pprof protobuf profile: everything but
// the samples, which are decoded in a second pass straight into a Builder.
type pbDecoder struct {
	strs        []string
	sampleTypes [][2]int64
	periodType  [2]int64
	period      int64
	timeNanos   int64
	comments    []int64
	defaultType int64
	others      []int64 // drop_frames, keep_frames, doc_url: checked, unused
	nSamples    int

	durationNanos int64

	maps    map[uint64]int32 // mapping id → index
	mapFile []int64          // per mapping: file name string index

	funcs     map[uint64]int32 // function id → index into funcList
	funcList  []pbFunction
	funcNames []string // in file order, for guessLang

	locs       map[uint64]int32 // location id → index
	locMapping []uint64
	locAddr    []uint64 // per location: its address
	locLines   []int32  // per location: start in lineFuncs; one more entry at the end
	lineIDs    []uint64 // function ids of every location's lines, resolved into lineFuncs
	lineNums   []int64  // line numbers of every location's lines
	lineFuncs  []int32
	locFrames  [][]int32
	strsRead   []string // the string table as read, before resolve checks it

	ctx        context.Context
	room       int64 // table entries still allowed; below 0, the tables are too large
	maxSamples int
	fields     int // top-level fields read so far
}

// pbFunction is a function record: string indices and its start line.
type pbFunction struct {
	name, system, file int64
	start              int64
}

// header reads every top-level field except the samples, which it counts.
func (d *pbDecoder) header(src pbSource) bool {
	timeSeen := false
	return src(func(f pbField) bool {
		if f.num != 2 {
			d.room--
		}
		if d.fields++; d.room < 0 || d.nSamples > d.maxSamples || d.fields%4096 == 0 && d.ctx.Err() != nil {
			return false
		}
		switch f.num {
		case 1:
			vt, ok := pbValueType(f.data)
			d.sampleTypes = append(d.sampleTypes, vt)
			return ok
		case 2:
			d.nSamples++
		case 3:
			return d.mapping(f.data)
		case 4:
			return d.location(f.data)
		case 5:
			return d.function(f.data)
		case 6:
			d.strsRead = append(d.strsRead, string(f.data))
		case 7, 8, 15:
			d.others = append(d.others, int64(f.u))
		case 9:
			if timeSeen && d.timeNanos != 0 {
				return false // concatenated profiles: profile.ParseData refuses them
			}
			timeSeen, d.timeNanos = true, int64(f.u)
		case 10:
			d.durationNanos = int64(f.u)
		case 11:
			vt, ok := pbValueType(f.data)
			d.periodType = vt
			return ok
		case 12:
			d.period = int64(f.u)
		case 13:
			var c []uint64
			c, ok := pbInts(c, f)
			for _, x := range c {
				d.comments = append(d.comments, int64(x))
			}
			return ok
		case 14:
			d.defaultType = int64(f.u)
		}
		return true
	})
}

func pbValueType(msg []byte) (vt [2]int64, ok bool) {
	ok = pbFields(msg, pbValueTypeSchema, func(f pbField) bool {
		vt[f.num-1] = int64(f.u)
		return true
	})
	return vt, ok
}

func (d *pbDecoder) mapping(msg []byte) bool {
	var id uint64
	var file, build int64
	ok := pbFields(msg, pbMappingSchema, func(f pbField) bool {
		switch f.num {
		case 1:
			id = f.u
		case 5:
			file = int64(f.u)
		case 6:
			build = int64(f.u)
		}
		return true
	})
	if _, dup := d.maps[id]; !ok || id == 0 || dup {
		return false
	}
	d.maps[id] = int32(len(d.mapFile))
	d.mapFile = append(d.mapFile, file)
	d.others = append(d.others, build)
	return true
}

func (d *pbDecoder) function(msg []byte) bool {
	var id uint64
	var fn pbFunction
	ok := pbFields(msg, pbFunctionSchema, func(f pbField) bool {
		switch f.num {
		case 1:
			id = f.u
		case 2:
			fn.name = int64(f.u)
		case 3:
			fn.system = int64(f.u)
		case 4:
			fn.file = int64(f.u)
		case 5:
			fn.start = int64(f.u)
		}
		return true
	})
	if _, dup := d.funcs[id]; !ok || id == 0 || dup {
		return false
	}
	d.funcs[id] = int32(len(d.funcList))
	d.funcList = append(d.funcList, fn)
	return true
}

func (d *pbDecoder) location(msg []byte) bool {
	var id, mapping, addr uint64
	start := len(d.lineIDs)
	ok := pbFields(msg, pbLocationSchema, func(f pbField) bool {
		switch f.num {
		case 1:
			id = f.u
		case 2:
			mapping = f.u
		case 3:
			addr = f.u
		case 4:
			var fid uint64
			var line int64
			ok := pbFields(f.data, pbLineSchema, func(g pbField) bool {
				switch g.num {
				case 1:
					fid = g.u
				case 2:
					line = int64(g.u)
				}
				return true
			})
			d.lineIDs = append(d.lineIDs, fid)
			d.lineNums = append(d.lineNums, line)
			d.room--
			return ok
		}
		return true
	})
	if _, dup := d.locs[id]; !ok || id == 0 || dup {
		return false
	}
	d.locs[id] = int32(len(d.locMapping))
	d.locMapping = append(d.locMapping, mapping)
	d.locAddr = append(d.locAddr, addr)
	d.locLines = append(d.locLines, int32(start))
	return true
}

// resolve checks every string index and function reference the way
// profile's postDecode and CheckValid do, and builds the string table.
func (d *pbDecoder) resolve() bool {
	if len(d.sampleTypes) == 0 || len(d.strsRead) == 0 || d.strsRead[0] != "" {
		return false
	}
	d.strs, d.strsRead = d.strsRead, nil
	idx := append([]int64{d.periodType[0], d.periodType[1], d.defaultType}, d.others...)
	idx = append(idx, d.comments...)
	idx = append(idx, d.mapFile...)
	for _, st := range d.sampleTypes {
		idx = append(idx, st[0], st[1])
	}
	for _, fn := range d.funcList {
		idx = append(idx, fn.name, fn.system, fn.file)
	}
	for _, i := range idx {
		if i < 0 || i >= int64(len(d.strs)) {
			return false
		}
	}
	for _, fn := range d.funcList {
		d.funcNames = append(d.funcNames, d.strs[fn.name])
	}
	d.lineFuncs = make([]int32, len(d.lineIDs))
	for i, id := range d.lineIDs {
		fi, ok := d.funcs[id]
		if !ok {
			return false // a line without a function: CheckValid refuses it
		}
		d.lineFuncs[i] = fi
	}
	d.locLines = append(d.locLines, int32(len(d.lineIDs)))
	d.locFrames = make([][]int32, len(d.locMapping))
	return true
}

// labelSet collects one sample's labels as postDecode and sampleLabels
// would: string labels first, then numeric ones with their units.
type labelSet struct {
	str, num map[string][]string
}

func (d *pbDecoder) label(ls *labelSet, msg []byte) bool {
	var key, str, num, unit int64
	ok := pbFields(msg, pbLabelSchema, func(f pbField) bool {
		switch f.num {
		case 1:
			key = int64(f.u)
		case 2:
			str = int64(f.u)
		case 3:
			num = int64(f.u)
		case 4:
			unit = int64(f.u)
		}
		return true
	})
	n := int64(len(d.strs))
	if !ok || key < 0 || key >= n || str < 0 || str >= n || unit < 0 || unit >= n {
		return false
	}
	k := d.strs[key]
	switch {
	case str != 0:
		if ls.str == nil {
			ls.str = map[string][]string{}
		}
		ls.str[k] = append(ls.str[k], d.strs[str])
	case num != 0 || unit != 0:
		v := strconv.FormatInt(num, 10)
		if u := d.strs[unit]; u != "" {
			v += " " + u
		}
		if ls.num == nil {
			ls.num = map[string][]string{}
		}
		ls.num[k] = append(ls.num[k], v)
	}
	return true
}

// merged returns the labels as fromProfile keeps them, or nil.
func (ls *labelSet) merged() map[string][]string {
	if ls.str == nil && ls.num == nil {
		return nil
	}
	out := ls.str
	if out == nil {
		out = map[string][]string{}
	}
	for k, v := range ls.num {
		out[k] = append(out[k], v...)
	}
	return out
}
