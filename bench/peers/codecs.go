package main

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/decimal"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/encoding"
	"github.com/prometheus/prometheus/tsdb/chunkenc"
	"github.com/tsqdb/tsq/chunk"
)

// chunkData is one chunk of one series. The same timestamps are held in
// both units so that each codec gets the unit its store uses natively
// without converting inside the timed loop.
type chunkData struct {
	ms   []int64 // unix milliseconds: Prometheus, VictoriaMetrics
	ns   []int64 // unix nanoseconds: tsq
	vals []float64
}

// codec is one peer's chunk encoding as its store would use it. An
// implementation keeps scratch state between calls, so that repeated use
// measures encoding rather than allocation; it is not safe for concurrent
// use.
type codec interface {
	name() string
	// encode encodes c as one self-contained block into buf's storage
	// (buf's contents are discarded) and returns the block. Its length is
	// what the benchmark counts as the codec's size.
	encode(buf []byte, c *chunkData) ([]byte, error)
	// decode decodes a block made by encode. It sets out.vals and the
	// timestamps in the unit the codec stores (out.ms or out.ns, leaving the
	// other alone), reusing their storage where it can. The results may
	// alias the codec's scratch state and are valid until the next call.
	decode(src []byte, out *chunkData) error
}

// newCodecs returns the codecs to compare, tsq first.
func newCodecs() []codec {
	return []codec{&tsqCodec{}, newProm(), &vmCodec{}}
}

// ---------------------------------------------------------------------------
// tsq: github.com/tsqdb/tsq/chunk, timestamps in ns.

// tsqCodec encodes a chunk as one tsq block with default options: an int64
// "time" column of unix nanoseconds and a float64 "value" column.
type tsqCodec struct {
	enc  chunk.Encoder
	dec  chunk.Decoder
	blk  chunk.Block
	cols [2]chunk.Column
	tcol chunk.Column
	vcol chunk.Column
}

func (*tsqCodec) name() string { return "tsq" }

func (t *tsqCodec) encode(buf []byte, c *chunkData) ([]byte, error) {
	t.cols[0] = chunk.Column{Name: "time", Type: chunk.Int64, Ints: c.ns}
	t.cols[1] = chunk.Column{Name: "value", Type: chunk.Float64, Floats: c.vals}
	t.blk = chunk.Block{Rows: len(c.ns), Columns: t.cols[:]}
	return t.enc.Append(buf[:0], &t.blk, nil)
}

func (t *tsqCodec) decode(src []byte, out *chunkData) error {
	if err := t.dec.Reset(src); err != nil {
		return err
	}
	if err := t.dec.Column(0, &t.tcol); err != nil {
		return err
	}
	if err := t.dec.Column(1, &t.vcol); err != nil {
		return err
	}
	if t.tcol.Type != chunk.Int64 || t.vcol.Type != chunk.Float64 {
		return fmt.Errorf("tsq: decoded column types %v, %v", t.tcol.Type, t.vcol.Type)
	}
	out.ns, out.vals = t.tcol.Ints, t.vcol.Floats
	return nil
}

// ---------------------------------------------------------------------------
// Prometheus: tsdb/chunkenc XOR chunk (Gorilla), timestamps in ms.

type promCodec struct {
	enc *chunkenc.XORChunk
	dec *chunkenc.XORChunk
	it  chunkenc.Iterator
}

func newProm() *promCodec {
	return &promCodec{enc: chunkenc.NewXORChunk(), dec: chunkenc.NewXORChunk()}
}

func (*promCodec) name() string { return "prom" }

// maxPromSamples is the most samples an XOR chunk can count (uint16 header).
const maxPromSamples = 1<<16 - 1

func (p *promCodec) encode(buf []byte, c *chunkData) ([]byte, error) {
	if len(c.ms) > maxPromSamples {
		return nil, fmt.Errorf("prom: %d samples do not fit one XOR chunk", len(c.ms))
	}
	// An empty XOR chunk is its 2-byte big-endian sample count, zero.
	// Resetting onto buf's storage reuses it instead of allocating a chunk.
	p.enc.Reset(append(buf[:0], 0, 0))
	app, err := p.enc.Appender()
	if err != nil {
		return nil, err
	}
	for i, t := range c.ms {
		app.Append(0, t, c.vals[i]) // st (start timestamp) 0: none
	}
	return p.enc.Bytes(), nil
}

func (p *promCodec) decode(src []byte, out *chunkData) error {
	p.dec.Reset(src)
	p.it = p.dec.Iterator(p.it)
	ms, vals := out.ms[:0], out.vals[:0]
	for p.it.Next() == chunkenc.ValFloat {
		t, v := p.it.At()
		ms = append(ms, t)
		vals = append(vals, v)
	}
	out.ms, out.vals = ms, vals
	return p.it.Err()
}

// ---------------------------------------------------------------------------
// VictoriaMetrics: lib/encoding over lib/decimal, timestamps in ms.
//
// VM stores a block as two byte streams (timestamps, decimal mantissas) plus
// a blockHeader. The adapter writes, ahead of the two streams, the part of
// blockHeader needed to decode the block by itself, and counts it:
//
//	[0:8]   MinTimestamp (first timestamp)   int64
//	[8:16]  FirstValue (first mantissa)      int64
//	[16:20] RowsCount                        uint32
//	[20:24] TimestampsBlockSize              uint32
//	[24:26] Scale (decimal exponent)         int16
//	[26]    TimestampsMarshalType            byte
//	[27]    ValuesMarshalType                byte
//
// Not counted: TSID, MaxTimestamp, block offsets, ValuesBlockSize and
// PrecisionBits, which VM keeps for indexing and placement.

const (
	vmHeaderSize    = 28
	vmPrecisionBits = 64 // lossless integer encoding, VM's default
)

type vmCodec struct {
	mant  []int64 // encode: decimal mantissas
	dmant []int64 // decode: decimal mantissas
}

func (*vmCodec) name() string { return "vm" }

func (v *vmCodec) encode(buf []byte, c *chunkData) ([]byte, error) {
	if len(c.ms) == 0 {
		return nil, errors.New("vm: empty chunk")
	}
	var scale int16
	v.mant, scale = decimal.AppendFloatToDecimal(v.mant[:0], c.vals)
	buf = append(buf[:0], make([]byte, vmHeaderSize)...)
	buf, tsMT, firstTS := encoding.MarshalTimestamps(buf, c.ms, vmPrecisionBits)
	tsLen := len(buf) - vmHeaderSize
	buf, valMT, firstV := encoding.MarshalValues(buf, v.mant, vmPrecisionBits)
	h := buf[:vmHeaderSize]
	binary.BigEndian.PutUint64(h[0:], uint64(firstTS))
	binary.BigEndian.PutUint64(h[8:], uint64(firstV))
	binary.BigEndian.PutUint32(h[16:], uint32(len(c.ms)))
	binary.BigEndian.PutUint32(h[20:], uint32(tsLen))
	binary.BigEndian.PutUint16(h[24:], uint16(scale))
	h[26], h[27] = byte(tsMT), byte(valMT)
	return buf, nil
}

func (v *vmCodec) decode(src []byte, out *chunkData) error {
	if len(src) < vmHeaderSize {
		return fmt.Errorf("vm: block of %d bytes is shorter than its header", len(src))
	}
	firstTS := int64(binary.BigEndian.Uint64(src[0:]))
	firstV := int64(binary.BigEndian.Uint64(src[8:]))
	n := int(binary.BigEndian.Uint32(src[16:]))
	tsLen := int(binary.BigEndian.Uint32(src[20:]))
	scale := int16(binary.BigEndian.Uint16(src[24:]))
	tsMT, valMT := encoding.MarshalType(src[26]), encoding.MarshalType(src[27])
	body := src[vmHeaderSize:]
	if tsLen > len(body) {
		return fmt.Errorf("vm: timestamps size %d exceeds the block's %d bytes", tsLen, len(body))
	}
	var err error
	out.ms, err = encoding.UnmarshalTimestamps(out.ms[:0], body[:tsLen], tsMT, firstTS, n)
	if err != nil {
		return err
	}
	v.dmant, err = encoding.UnmarshalValues(v.dmant[:0], body[tsLen:], valMT, firstV, n)
	if err != nil {
		return err
	}
	out.vals = decimal.AppendDecimalToFloat(out.vals[:0], v.dmant, scale)
	return nil
}
