package codec

import (
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/internal/testdata"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden pins the bytes of every encoding on small fixed inputs; see
// docs/FORMAT.md. A change here is a format change.
func TestGolden(t *testing.T) {
	var c Encoder
	var sb strings.Builder
	put := func(name string, b []byte) { fmt.Fprintf(&sb, "%-28s %s\n", name, hex.EncodeToString(b)) }
	ints := []int64{1000, 1010, 1020, 1030, 1045, 1045, -3}
	for _, e := range []IntEncoding{IntPacked, IntDelta, IntDoD, IntRLE, IntVarint} {
		put("ints "+e.String(), c.AppendIntsAs(nil, ints, e))
	}
	spike := []int64{1, 2, 3, 1, 1 << 40, 2, 3, 1, 2, 3}
	put("ints packed exception", c.AppendIntsAs(nil, spike, IntPacked))
	put("ints auto regular ns", c.AppendInts(nil, []int64{1e18, 1e18 + 15e9, 1e18 + 30e9, 1e18 + 45e9}))
	floats := []float64{0.1, 94.79799999999999, math.Copysign(0, -1), math.Inf(1), math.Float64frombits(0x7ff0000000000002), 5e-324}
	for _, e := range []FloatEncoding{FloatRaw, FloatXOR, FloatDecimal} {
		put("floats "+e.String(), c.AppendFloatsAs(nil, floats, e))
	}
	put("bools bitmap", AppendBools(nil, []bool{true, false, true, true, false, false, false, false, true}))
	put("bools const", AppendBools(nil, []bool{true, true}))
	sparse := make([]bool, 40)
	sparse[5], sparse[33] = true, true
	put("bools sparse", AppendBools(nil, sparse))
	put("strings plain", c.AppendStrings(nil, []string{"a", "bc", ""}))
	put("strings dict", c.AppendStrings(nil, []string{"cpu", "mem", "cpu", "cpu"}))
	put("strings prefix", c.AppendStrings(nil, []string{"key-0098", "key-0099", "key-0100", "key-0101"}))
	// Version 2 of the block format added "strings prefix", version 3
	// "bools sparse"; every other line is as version 1 wrote it.
	testdata.Golden(t, "testdata/golden_v3.txt", sb.String(), *update)
}
