package compact

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// benchKeys returns the pair hashes of a window shaped as
// BenchmarkCompactRewrite's: n keyed puts, then deletes of every tenth
// key, newest first.
func benchKeys(t *hashTable, n int) []hashKey {
	rng := rand.New(rand.NewPCG(1, 2))
	puts := make([]hashKey, n)
	for i := range puts {
		puts[i] = hashKey{lo: rng.Uint64() | 1, hi: rng.Uint64()}
	}
	var ks []hashKey
	for i := n - 1; i >= 0; i-- {
		if i%10 == 0 {
			ks = append(ks, puts[i])
		}
	}
	for i := n - 1; i >= 0; i-- {
		ks = append(ks, puts[i])
	}
	return ks
}

func upsertAll(t *hashTable, ks []hashKey, rows []int32) {
	const batch = 256
	for j := len(rows) - 1; j >= 0; j-- {
		if (j+1)%batch == 0 || j == len(rows)-1 {
			t.touchRows(ks, rows[max(0, j+1-batch):j+1])
		}
		k := ks[rows[j]]
		v := uint64(len(rows)-j) << 1
		if _, _, ins := t.upsertShard(k, v, func(old uint64) bool { return v>>1 > old>>1 }); ins {
			t.n++
		}
	}
}

func BenchmarkTableUpsert(b *testing.B) {
	const n = 400_000
	t0 := newHashTable()
	ks := benchKeys(t0, n)
	rows := make([]int32, len(ks))
	for i := range rows {
		rows[i] = int32(len(ks) - 1 - i)
	}
	b.Run("fresh", func(b *testing.B) {
		for range b.N {
			t := newHashTable()
			t.presize(1 << 19)
			upsertAll(t, ks, rows)
		}
	})
	b.Run("fresh-sized", func(b *testing.B) {
		for range b.N {
			t := newHashTable()
			t.presize(len(ks) * 8 / 9)
			upsertAll(t, ks, rows)
		}
	})
	b.Run("warm", func(b *testing.B) {
		t := newHashTable()
		t.presize(1 << 19)
		for range b.N {
			for si := range t.shards {
				clear(t.shards[si].slots)
				t.shards[si].n = 0
			}
			t.n = 0
			upsertAll(t, ks, rows)
		}
	})
	// radix: a batch of rows scattered by the top hash bits (16 groups
	// of 16 shards) before the upserts, order kept within a group.
	for _, bs := range []int{8192, 65536, 1 << 20} {
		b.Run("radix-warm-"+itoa(bs), func(b *testing.B) {
			t := newHashTable()
			t.presize(1 << 19)
			var parts [64][]int32
			for range b.N {
				for si := range t.shards {
					clear(t.shards[si].slots)
					t.shards[si].n = 0
				}
				t.n = 0
				for lo := 0; lo < len(rows); lo += bs {
					hi := min(lo+bs, len(rows))
					for p := range parts {
						parts[p] = parts[p][:0]
					}
					// rows[lo:hi] are taken from the end: newest first
					for j := hi - 1; j >= lo; j-- {
						r := rows[j]
						p := ks[r].hi >> 58
						parts[p] = append(parts[p], r)
					}
					for p := range parts {
						upsertFwd(t, ks, parts[p])
					}
				}
			}
		})
	}
}

func upsertFwd(t *hashTable, ks []hashKey, rows []int32) {
	const batch = 256
	for j := range rows {
		if j%batch == 0 {
			t.touchRows(ks, rows[j:min(len(rows), j+batch)])
		}
		k := ks[rows[j]]
		v := uint64(len(rows)-j) << 1
		if _, _, ins := t.upsertShard(k, v, func(old uint64) bool { return v>>1 > old>>1 }); ins {
			t.n++
		}
	}
}

func itoa(n int) string {
	s := ""
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}

func BenchmarkTableUpsertSmall(b *testing.B) {
	for _, n := range []int{4000, 40000, 400_000} {
		b.Run(itoa(n), func(b *testing.B) {
			t := newHashTable()
			ks := benchKeys(t, n)
			rows := make([]int32, 0, 440_000)
			for len(rows) < 440_000 {
				for i := range ks {
					rows = append(rows, int32(len(ks)-1-i))
				}
			}
			rows = rows[:440_000]
			t.presize(n * 11 / 10)
			for range b.N {
				upsertAll(t, ks, rows)
			}
		})
	}
}

// sortRows orders rows (newest first) by shard then home slot, stably.
func sortRows(ks []hashKey, rows []int32, tmp []int32) []int32 {
	key := func(r int32) uint32 { k := ks[r]; return uint32(k.hi>>56)<<14 | uint32(k.lo>>50) }
	var cnt [2048]int
	src, dst := rows, tmp[:len(rows)]
	for pass := 0; pass < 2; pass++ {
		sh := uint(11 * pass)
		clear(cnt[:])
		for _, r := range src {
			cnt[key(r)>>sh&2047]++
		}
		s := 0
		for i, c := range cnt {
			cnt[i] = s
			s += c
		}
		for _, r := range src {
			d := key(r) >> sh & 2047
			dst[cnt[d]] = r
			cnt[d]++
		}
		src, dst = dst, src
	}
	return src
}

func BenchmarkTableUpsertSorted(b *testing.B) {
	const n = 400_000
	t0 := newHashTable()
	ks := benchKeys(t0, n)
	rows := make([]int32, len(ks))
	for i := range rows {
		rows[i] = int32(i) // newest first
	}
	for _, bs := range []int{16384, 150000, 1 << 20} {
		for _, fresh := range []bool{false, true} {
			name := itoa(bs)
			if fresh {
				name += "-fresh"
			}
			b.Run(name, func(b *testing.B) {
				t := newHashTable()
				t.presize(1 << 19)
				a := make([]int32, len(rows))
				tmp := make([]int32, len(rows))
				for range b.N {
					if fresh {
						t = newHashTable()
						t.presize(1 << 19)
					} else {
						for si := range t.shards {
							clear(t.shards[si].slots)
							t.shards[si].n = 0
						}
					}
					t.n = 0
					for lo := 0; lo < len(rows); lo += bs {
						hi := min(lo+bs, len(rows))
						s := sortRows(ks, append(a[:0], rows[lo:hi]...), tmp)
						for j, r := range s {
							k := ks[r]
							v := uint64(len(rows)-lo-j) << 1
							if _, _, ins := t.upsertShard(k, v, func(old uint64) bool { return v>>1 > old>>1 }); ins {
								t.n++
							}
						}
					}
				}
			})
		}
	}
}

// upsertPrefetch upserts newest first as decideHalf does: the home
// slots of the rows ahead rows further on are prefetched batch at a
// time.
func upsertPrefetch(t *hashTable, ks []hashKey, rows []int32, batch, ahead int) {
	var addrs [64]uintptr
	pf := len(rows)
	for j := len(rows) - 1; j >= 0; j-- {
		for want := max(0, j+1-ahead); pf > want; {
			lo := max(0, pf-batch)
			n := 0
			for _, r := range rows[lo:pf] {
				k := ks[r]
				s := t.shard(k)
				i, _ := bits.Mul64(k.lo, uint64(len(s.slots)))
				addrs[n] = uintptr(unsafe.Pointer(&s.slots[i]))
				n++
			}
			prefetchAll(addrs[:n])
			pf = lo
		}
		k := ks[rows[j]]
		v := uint64(len(rows)-j) << 1
		if _, _, ins := t.upsertNewer(k, v); ins {
			t.n++
		}
	}
}

func BenchmarkTableUpsertPrefetch(b *testing.B) {
	const n = 400_000
	t0 := newHashTable()
	ks := benchKeys(t0, n)
	rows := make([]int32, len(ks))
	for i := range rows {
		rows[i] = int32(len(ks) - 1 - i)
	}
	// batch 64, ahead 64: hints in bursts (what the fold did before);
	// the production values prefetchBatch, prefetchAhead; others near.
	for _, c := range []struct {
		name         string
		pf, fresh    bool
		batch, ahead int
	}{{"touch", false, false, 0, 0}, {"prefetch-64-64", true, false, 64, 64}, {"prefetch-1-8", true, false, 1, 8},
		{"prefetch-4-16", true, false, prefetchBatch, prefetchAhead}, {"prefetch-8-32", true, false, 8, 32},
		{"touch-fresh", false, true, 0, 0}, {"prefetch-4-16-fresh", true, true, prefetchBatch, prefetchAhead}} {
		pf := c.pf
		b.Run(c.name, func(b *testing.B) {
			t := newHashTable()
			t.presize(1 << 19)
			for range b.N {
				if c.fresh {
					t = newHashTable()
					t.presize(1 << 19)
				} else {
					for si := range t.shards {
						clear(t.shards[si].slots)
						t.shards[si].n = 0
					}
					t.n = 0
				}
				if pf {
					upsertPrefetch(t, ks, rows, c.batch, c.ahead)
				} else {
					upsertAll(t, ks, rows)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(rows)), "ns/upsert")
		})
	}
}

// BenchmarkLiveSetEvict: a pass's eviction of a live set of 440,000
// entries (the rewrite benchmark's keyed puts and deletes) up to W.
// all: every entry is at or below W (no append during the pass), each
// shard freed whole; mixed: every hundredth seq is above W (appends
// during the pass, in every shard), each shard filtered entry by entry.
func BenchmarkLiveSetEvict(b *testing.B) {
	const n = 440_000
	for _, shape := range []string{"all", "mixed"} {
		b.Run(shape, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				l := NewLiveSet()
				w := uint64(n)
				for i := range uint64(n) {
					seq := i + 1
					if shape == "mixed" && i%100 == 0 {
						seq += n
					}
					l.Observe(seq, fmt.Sprintf("host%02d", i%50), fmt.Sprintf("obj%08d", i), OpPut)
				}
				b.StartTimer()
				l.Evict(w)
				b.StopTimer()
				if want := map[string]int{"all": 0, "mixed": n / 100}[shape]; l.Len() != want {
					b.Fatalf("%d entries left, want %d", l.Len(), want)
				}
			}
		})
	}
}
