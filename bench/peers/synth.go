package main

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Synthetic shapes: each is its own dataset of synthSeries series of
// synthSamples samples, generated from a fixed seed so every run sees the
// same data.
const (
	synthSeries  = 10
	synthSamples = 10_000
	synthSeed    = 0x7ac0_5eed
	synthStartMs = 1_700_000_000_000 // 2023-11-14T22:13:20Z
	scrapeMs     = 15_000
)

func synthetic() []*dataset {
	return []*dataset{
		synth("synth-counter", 1, counterSeries),
		synth("synth-gauge2", 2, gauge2Series),
		synth("synth-randomwalk", 3, randomWalkSeries),
		synth("synth-const", 4, constSeries),
	}
}

func synth(name string, stream uint64, gen func(r *rand.Rand, s int, vals []float64)) *dataset {
	r := rand.New(rand.NewPCG(synthSeed, stream))
	d := &dataset{name: name}
	for s := 0; s < synthSeries; s++ {
		ms := scrapeTimes(r, synthSamples)
		vals := make([]float64, synthSamples)
		gen(r, s, vals)
		d.series = append(d.series, series{name: fmt.Sprintf("%s_%d", name, s), ms: ms, vals: vals})
	}
	return d
}

// scrapeTimes returns n scrape timestamps 15 s apart, each scrape landing
// within a few milliseconds of its slot, as a Prometheus-style scraper's do.
func scrapeTimes(r *rand.Rand, n int) []int64 {
	ms := make([]int64, n)
	start := int64(synthStartMs + r.IntN(scrapeMs))
	for i := range ms {
		jitter := int64(0)
		if r.IntN(4) != 0 { // most scrapes are a few ms late
			jitter = int64(r.IntN(9)) - 2
		}
		ms[i] = start + int64(i)*scrapeMs + jitter
	}
	return ms
}

// counterSeries: node-exporter-like integer counters (bytes, packets,
// seconds-in-ticks): a per-series base rate with bursty increments and an
// occasional reset to zero, as after a restart.
func counterSeries(r *rand.Rand, s int, vals []float64) {
	rate := math.Pow(10, float64(s%6)) // 1 .. 100000 per second
	c := float64(r.Int64N(1 << 40))
	if s%3 == 0 {
		c = float64(r.IntN(1000))
	}
	for i := range vals {
		if r.IntN(5000) == 0 {
			c = 0
		}
		inc := rate * 15 * (0.5 + r.ExpFloat64())
		if r.IntN(10) == 0 {
			inc = 0 // idle interface
		}
		c += math.Round(inc)
		vals[i] = c
	}
}

// gauge2Series: gauges with two decimals (temperatures, percentages,
// load averages) such as 23.45, drifting by small steps.
func gauge2Series(r *rand.Rand, s int, vals []float64) {
	cents := int64(1000 + r.IntN(9000)) // 10.00 .. 99.99
	for i := range vals {
		switch k := r.IntN(10); {
		case k < 3: // unchanged
		case k < 9:
			cents += int64(r.IntN(21)) - 10
		default:
			cents += int64(r.IntN(401)) - 200
		}
		if cents < 0 {
			cents = -cents
		}
		vals[i] = float64(cents) / 100 // the float64 nearest the decimal, as ParseFloat gives
	}
}

// randomWalkSeries: full-precision float random walk.
func randomWalkSeries(r *rand.Rand, s int, vals []float64) {
	v := r.Float64() * 100
	for i := range vals {
		v += r.NormFloat64() * 0.5
		vals[i] = v
	}
}

// constSeries: each series holds one value throughout.
func constSeries(r *rand.Rand, s int, vals []float64) {
	consts := []float64{0, 1, 42, 3.14, 1e9, -7.5, 0.001, 123456789, 2.5e-7, 100}
	for i := range vals {
		vals[i] = consts[s%len(consts)]
	}
}
