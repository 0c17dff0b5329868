package index

import (
	"encoding/binary"
	"fmt"
	"time"
)

// Limits of a retention rule, checked by EncodeRule and DecodeRule.
const (
	MaxFieldLen     = 255  // bytes of ProtectField
	MaxProtected    = 1024 // entries of ProtectValues
	MaxProtectedLen = 1024 // bytes of one protected value
)

// Rule is a stream's retention rule. The zero Rule keeps everything.
type Rule struct {
	// MaxAge: rows whose record time is older than now-MaxAge are
	// removed; 0 = no age limit.
	MaxAge time.Duration
	// MaxCount: the oldest visible rows beyond this many are removed;
	// 0 = no count limit.
	MaxCount int64
	// ProtectField and ProtectValues: rows whose field ProtectField holds
	// one of ProtectValues are never removed by retention.
	ProtectField  string
	ProtectValues []string
}

// Check reports what is wrong with r, if anything.
func (r *Rule) Check() error {
	switch {
	case r.MaxAge < 0:
		return fmt.Errorf("MaxAge %v is negative", r.MaxAge)
	case r.MaxCount < 0:
		return fmt.Errorf("MaxCount %d is negative", r.MaxCount)
	case len(r.ProtectField) > MaxFieldLen:
		return fmt.Errorf("ProtectField of %d bytes, at most %d", len(r.ProtectField), MaxFieldLen)
	case len(r.ProtectValues) > MaxProtected:
		return fmt.Errorf("%d ProtectValues, at most %d", len(r.ProtectValues), MaxProtected)
	case len(r.ProtectValues) > 0 && r.ProtectField == "":
		return fmt.Errorf("ProtectValues without a ProtectField")
	}
	for i, v := range r.ProtectValues {
		if len(v) > MaxProtectedLen {
			return fmt.Errorf("ProtectValues[%d] of %d bytes, at most %d", i, len(v), MaxProtectedLen)
		}
	}
	return nil
}

// AppendRule appends the payload of r to dst:
//
//	<8b MaxAge ns> <8b MaxCount> <uvarint len> field
//	<uvarint n> n × (<uvarint len> value)
func AppendRule(dst []byte, r *Rule) ([]byte, error) {
	if err := r.Check(); err != nil {
		return dst, fmt.Errorf("index: retention rule: %w", err)
	}
	dst = binary.LittleEndian.AppendUint64(dst, uint64(r.MaxAge))
	dst = binary.LittleEndian.AppendUint64(dst, uint64(r.MaxCount))
	dst = binary.AppendUvarint(dst, uint64(len(r.ProtectField)))
	dst = append(dst, r.ProtectField...)
	dst = binary.AppendUvarint(dst, uint64(len(r.ProtectValues)))
	for _, v := range r.ProtectValues {
		dst = binary.AppendUvarint(dst, uint64(len(v)))
		dst = append(dst, v...)
	}
	return dst, nil
}

func (w *walker) uvarint(section string, limit uint64) uint64 {
	if w.err != nil {
		return 0
	}
	v, n := binary.Uvarint(w.p[w.off:])
	if n <= 0 {
		w.fail(section, "bad uvarint")
		return 0
	}
	if v > limit {
		w.fail(section, "%d exceeds the limit %d", v, limit)
		return 0
	}
	w.off += n
	return v
}

// DecodeRule decodes a payload written by AppendRule; path is for errors.
func DecodeRule(p []byte, path string) (Rule, error) {
	w := &walker{p: p, path: path}
	var r Rule
	r.MaxAge = time.Duration(w.u64("retention max age"))
	r.MaxCount = int64(w.u64("retention max count"))
	r.ProtectField = string(w.take(int(w.uvarint("retention field length", MaxFieldLen)), "retention field"))
	n := int(w.uvarint("retention value count", MaxProtected))
	if w.err == nil && n > len(p)-w.off {
		w.fail("retention value count", "%d values cannot fit in %d bytes", n, len(p)-w.off)
	}
	if w.err == nil && n > 0 {
		r.ProtectValues = make([]string, 0, n)
	}
	for i := 0; i < n && w.err == nil; i++ {
		v := w.take(int(w.uvarint("retention value length", MaxProtectedLen)), "retention value")
		r.ProtectValues = append(r.ProtectValues, string(v))
	}
	if w.err == nil && w.off != len(p) {
		w.fail("retention rule", "%d trailing bytes", len(p)-w.off)
	}
	if w.err != nil {
		return Rule{}, w.err
	}
	if err := r.Check(); err != nil {
		return Rule{}, corrupt(path, "retention rule", 0, "%v", err)
	}
	return r, nil
}
