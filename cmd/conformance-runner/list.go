package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
)

const listUsage = `usage: conformance-runner list [--part P] [--tags EXPR] [--run REGEXP] [--skip REGEXP]
                              [--shard K/N] [--profile P] [--json]

Prints the checks a run with the same selection would make, one per line: part/name, then
the requirement ids it checks; "(skipped)" marks those --skip would keep from running. Nothing
is run and no adapter is needed. --json prints an array of {part, area, name, requirements,
skipped} instead.

The selection flags are a run's: --part, --run and --skip repeat and take comma-separated
values, --tags takes a Cucumber tag expression (conformance-runner -h). The names printed
are those a --skip-file lists.
`

// listCmd lists the checks of a selection.
func listCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("conformance-runner list")
	var sel selection
	sel.register(fs)
	asJSON := fs.Bool("json", false, "")
	dash, code, done := parsePFlags(fs, args, listUsage, stdout, stderr)
	if done {
		return code
	}
	if dash != nil {
		return usageErr(stderr, "list runs no adapter: nothing goes after --")
	}
	var r conformance.Runner
	if err := sel.apply(&r); err != nil {
		return usageErr(stderr, err.Error())
	}
	checks, err := conformance.List(context.Background(), r)
	if err != nil {
		return usageErr(stderr, err.Error())
	}
	if len(checks) == 0 {
		return usageErr(stderr, "the selection matches no check")
	}
	if *asJSON {
		type check struct {
			Part         string   `json:"part"`
			Area         string   `json:"area"`
			Name         string   `json:"name"`
			Requirements []string `json:"requirements"`
			Skipped      bool     `json:"skipped"`
		}
		out := make([]check, len(checks))
		for i, c := range checks {
			out[i] = check{c.Part, c.Area, c.Name, append([]string{}, c.Requirements...), c.Message != ""}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return report.ExitUsage
		}
		return 0
	}
	for _, c := range checks {
		line := c.Part + "/" + c.Name
		if len(c.Requirements) > 0 {
			line += "\t" + strings.Join(c.Requirements, " ")
		}
		if c.Message != "" {
			line += "\t(skipped)"
		}
		fmt.Fprintln(stdout, line)
	}
	return 0
}

// parseShard parses --shard K/N; empty is no sharding.
func parseShard(s string) (k, n int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	ks, ns, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("--shard %q: want K/N, e.g. 1/4", s)
	}
	if n < 1 || k < 1 || k > n {
		// 0/0 would silently run everything: a matrix with a typo would certify N times.
		return 0, 0, fmt.Errorf("--shard %q: want K/N with 1 <= K <= N, e.g. 1/4", s)
	}
	return k, n, nil
}
