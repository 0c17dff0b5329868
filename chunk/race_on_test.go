//go:build race

package chunk

// raceEnabled: tests that count allocations skip under the race
// detector, whose instrumentation changes what allocates.
const raceEnabled = true
