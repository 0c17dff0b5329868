package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	tsq "github.com/tsqdb/tsq"
)

// version is set at link time: -ldflags "-X main.version=v1.2.3".
var version = "dev"

func init() {
	register(&command{name: "version", short: "print the version", summary: "Print the version of tsq and of Go, and the on-disk format versions it reads.", run: runVersion})
}

func runVersion(_ context.Context, e *env, args []string) error {
	if err := e.parse(e.flags("version"), args); err != nil {
		return err
	}
	rev := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				rev = " (" + s.Value[:12] + ")"
			}
		}
	}
	fmt.Fprintf(e.stdout, "tsq %s%s %s %s/%s\n", version, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(e.stdout, "formats: %s\n", tsq.FormatVersions())
	return nil
}
