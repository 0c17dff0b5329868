package main

import (
	"context"
	"fmt"
)

func init() {
	register(&command{name: "gc", short: "clean up abandoned import staging", usage: "",
		summary: "Remove abandoned, rolled-back and expired import staging; finish committed imports a crash interrupted.",
		run:     runGC})
}

func runGC(ctx context.Context, e *env, args []string) error {
	if err := e.parse(e.flags("gc"), args); err != nil {
		return err
	}
	st, err := e.openStore(false)
	if err != nil {
		return err
	}
	defer st.Close()
	msg, err := gcStore(ctx, st)
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, msg)
	return nil
}

func fmtGC(removed, rolledForward, expired, skipped int) string {
	return fmt.Sprintf("staging: %d removed (%d expired), %d imports rolled forward, %d skipped",
		removed, expired, rolledForward, skipped)
}
