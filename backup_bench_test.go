package tsq

import (
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// BenchmarkBackup measures Store.Backup of a stream of 400,000 keyed
// puts with opaque bodies (fillStream: about 22 MB of segments), in MB/s
// of segment bytes copied, against copying the same files with fsync
// (copyFiles, the physical limit) in the same run. Run with
// -benchtime=1x -count N: each iteration builds a fresh store on the OS
// file system. A backup also checks every block of its copy (reading it
// back and computing its CRC-32C), which the plain copy does not.
func BenchmarkBackup(b *testing.B) {
	var backupMBs, copyMBs float64
	for range b.N {
		b.StopTimer()
		dir := b.TempDir()
		s, err := Open(filepath.Join(dir, "db"), &Options{Sync: SyncNever, SegmentMaxBytes: 8 << 20, CompactInterval: 0})
		if err != nil {
			b.Fatal(err)
		}
		fillStream(b, s, "ev", benchRows(b, 400_000), false)
		sealForBench(b, s, "ev")
		files, size := segBytes(b, filepath.Join(dir, "db", "streams", "ev"))
		runtime.GC()
		b.StartTimer()
		copyDur := copyFiles(b, files, false)
		t0 := time.Now()
		st, err := s.Backup(ctx, filepath.Join(dir, "bak"), nil)
		backupDur := time.Since(t0)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		copyMBs = float64(size) / 1e6 / copyDur.Seconds()
		backupMBs = float64(st.Bytes) / 1e6 / backupDur.Seconds()
		b.Logf("%d segments, %.1f MB: backup %v (%.0f MB/s), copy %v (%.0f MB/s), ratio %.2f",
			st.Segments, float64(st.Bytes)/1e6, backupDur, backupMBs, copyDur, copyMBs, backupMBs/copyMBs)
		_ = s.Close()
	}
	b.ReportMetric(backupMBs, "backup-MB/s")
	b.ReportMetric(copyMBs, "copy-MB/s")
	b.ReportMetric(backupMBs/copyMBs, "ratio")
}
