package tsq

import (
	"fmt"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/compact"
	"github.com/tsqdb/tsq/index"
	"github.com/tsqdb/tsq/seg"
)

// FormatVersions names the versions of the on-disk formats this build
// reads (and writes, the newest of each): a store written by a newer
// build may hold versions an older one refuses (docs/OPERATIONS.md).
func FormatVersions() string {
	return fmt.Sprintf("block %d–%d, segment %d–%d, state files %d, import journal %d, watermark %d",
		chunk.V1, chunk.CurrentVersion, seg.V1, seg.CurrentVersion, index.CurrentVersion, journalVersion, compact.WatermarkVersion)
}
