//go:build !unix

package tsq

import "time"

// cpuTime is not measured on this platform.
func cpuTime() time.Duration { return 0 }

// cpuTimes is not measured on this platform.
func cpuTimes() (user, sys time.Duration) { return 0, 0 }

// minorFaults is not measured on this platform.
func minorFaults() int64 { return 0 }
