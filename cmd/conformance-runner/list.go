package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

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

// listCommand is "conformance-runner list": the checks of a selection, without running them.
var listCommand = &command{
	Name:      "list",
	UsageLine: "conformance-runner list [flags]",
	Short:     "list the checks a selection makes, without running them",
	Long:      func() string { return listUsage },
	DashErr:   "nothing goes after -- (list runs no adapter)",
	Flag: func(fs *pflag.FlagSet) func(c *call) int {
		var sel selection
		sel.register(fs)
		asJSON := fs.Bool("json", false, "")
		return func(c *call) int { return listChecks(c, sel, *asJSON) }
	},
}

// listChecks prints the checks sel selects, as text or JSON.
func listChecks(c *call, sel selection, asJSON bool) int {
	stdout := c.stdout
	var r conformance.Runner
	if err := sel.apply(&r); err != nil {
		return c.usageErr(err.Error())
	}
	checks, err := conformance.List(context.Background(), r)
	if err != nil {
		return c.usageErr(err.Error())
	}
	if len(checks) == 0 {
		return c.usageErr("the selection matches no check")
	}
	if asJSON {
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
