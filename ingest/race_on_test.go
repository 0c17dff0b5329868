//go:build race

package ingest

// raceEnabled: tests that count allocations skip under the race
// detector, whose instrumentation changes what allocates.
const raceEnabled = true
