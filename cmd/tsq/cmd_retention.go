package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

func init() {
	register(&command{name: "retention", short: "show, set or apply a stream's retention", usage: "STREAM [--max-age D] [--max-count N] [--protect FIELD=V1,V2] [--apply]",
		summary: "Show or set a stream's retention (kept rows by age and count, rows protected by a field's\n" +
			"values); --apply applies it now.",
		run: runRetention})
}

func runRetention(ctx context.Context, e *env, args []string) error {
	fs := e.flags("retention")
	var maxAge ageFlag
	var maxCount countFlag
	fs.Var(&maxAge, "max-age", "drop rows older than `D` (e.g. 90d, 2w, 36h); 0 keeps all")
	fs.Var(&maxCount, "max-count", "keep at most `N` rows; 0 keeps all")
	protect := fs.String("protect", "", "keep rows whose `FIELD=V1,V2` (e.g. status=open)")
	apply := fs.Bool("apply", false, "apply the retention now")
	// STREAM may come before the flags.
	var stream string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		stream, args = args[0], args[1:]
	}
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if stream == "" && fs.NArg() == 1 {
		stream = fs.Arg(0)
	} else if fs.NArg() > 0 || stream == "" {
		return errors.New("retention: give one STREAM")
	}
	st, err := e.openStore(false)
	if err != nil {
		return err
	}
	defer st.Close()
	r, err := getRetention(st, stream)
	if err != nil {
		return err
	}
	set := false
	if maxAge.set {
		r.MaxAge, set = maxAge.d, true
	}
	if maxCount.set {
		r.MaxCount, set = maxCount.n, true
	}
	if *protect != "" {
		f, vals, ok := strings.Cut(*protect, "=")
		if !ok || f == "" || vals == "" {
			return fmt.Errorf("retention: --protect wants FIELD=V1,V2, not %q", *protect)
		}
		r.ProtectField, r.ProtectValues, set = f, strings.Split(vals, ","), true
	}
	if set {
		if err := setRetention(st, stream, r); err != nil {
			return err
		}
	}
	fmt.Fprintf(e.stdout, "%s: max age %s, max count %s, protected %s\n", stream, ageText(r.MaxAge), countText(r.MaxCount), protectText(r))
	if *apply {
		msg, err := applyRetention(ctx, st, stream)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s: %s\n", stream, msg)
	}
	return nil
}

func ageText(d time.Duration) string {
	switch {
	case d <= 0:
		return "none"
	case d%(24*time.Hour) == 0:
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	return d.String()
}

func countText(n int64) string {
	if n <= 0 {
		return "none"
	}
	return fmt.Sprint(n)
}

func protectText(r retentionSpec) string {
	if r.ProtectField == "" {
		return "none"
	}
	return r.ProtectField + "=" + strings.Join(r.ProtectValues, ",")
}
