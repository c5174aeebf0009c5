package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/pflag"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
)

// Set by release builds (.goreleaser.yaml: -X main.version=… -X main.commit=… -X main.date=…);
// other builds take them from the build info the go command records.
var (
	version = ""
	commit  = ""
	date    = ""
)

const versionUsage = `usage: conformance-runner version [--json]

Prints what this binary certifies with: its version and commit, the kit, the adapter
protocol, the contract releases it knows (--profile) and the hash of its embedded fixtures.
A report names the same fixture hash, so two runs can be compared.
`

// buildVersion describes this binary.
type buildVersion struct {
	Version  string   `json:"version"` // release or module version; "devel" for a plain build
	Module   string   `json:"module"`
	Commit   string   `json:"commit,omitempty"`
	Date     string   `json:"date,omitempty"`
	Modified bool     `json:"modified,omitempty"` // built from a work tree with changes
	Kit      string   `json:"kit"`
	Go       string   `json:"go"`
	Platform string   `json:"platform"`
	Protocol int      `json:"protocol"`
	Releases []string `json:"contractReleases"` // the first is the default profile
	Fixtures string   `json:"fixtures"`         // sha256 of the embedded fixture set
	Package  string   `json:"package"`          // the npm package the contract is
}

// releases lists the contract releases the kit certifies, the default first.
func releases() []string {
	out := make([]string, len(protocol.Profiles))
	for i, p := range protocol.Profiles {
		out[i] = string(p)
	}
	return out
}

func currentVersion() buildVersion {
	v := buildVersion{
		Version: version, Commit: commit, Date: date,
		Module: "github.com/sessionref-kit/sessionref-kit", Kit: adapter.KitVersion,
		Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH,
		Protocol: protocol.Version, Releases: releases(),
		Package: "@deepseek-ai/dsh-session-reference",
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path != "" {
			v.Module = bi.Main.Path
		}
		if v.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if v.Commit == "" {
					v.Commit = s.Value
				}
			case "vcs.time":
				if v.Date == "" {
					v.Date = s.Value
				}
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if v.Version == "" {
		v.Version = "devel"
	}
	if v.Commit == "none" || v.Commit == "unknown" {
		v.Commit = "" // what a release build outside git stamps
	}
	if strings.HasPrefix(v.Date, "0001-01-01") {
		v.Date = ""
	}
	if h, err := cases.Hash(fixtures.FS); err == nil {
		v.Fixtures = h
	}
	return v
}

// versionCommand is "conformance-runner version": what this binary certifies with.
var versionCommand = &command{
	Name:      "version",
	UsageLine: "conformance-runner version [--json]",
	Short:     "this binary's version, commit, fixtures and contract releases",
	Long:      func() string { return versionUsage },
	DashErr:   "nothing goes after -- (version takes no arguments)",
	Flag: func(fs *pflag.FlagSet) func(c *call) int {
		asJSON := fs.Bool("json", false, "")
		return func(c *call) int { return printVersion(c.stdout, *asJSON) }
	},
}

// printVersion prints the version, as text or JSON.
func printVersion(stdout io.Writer, asJSON bool) int {
	v := currentVersion()
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if enc.Encode(v) != nil {
			return 2
		}
		return 0
	}
	fmt.Fprintf(stdout, "conformance-runner %s\n", v.Version)
	fmt.Fprintf(stdout, "module:   %s\n", v.Module)
	if v.Commit != "" {
		c := v.Commit
		if v.Date != "" {
			c += " (" + v.Date + ")"
		}
		if v.Modified {
			c += ", with uncommitted changes"
		}
		fmt.Fprintf(stdout, "commit:   %s\n", c)
	}
	fmt.Fprintf(stdout, "kit:      sessionref-kit %s, adapter protocol %d\n", v.Kit, v.Protocol)
	fmt.Fprintf(stdout, "contract: %s %s (default; --profile %s)\n", v.Package, v.Releases[0], strings.Join(v.Releases[1:], ", "))
	fmt.Fprintf(stdout, "fixtures: sha256 %s\n", v.Fixtures)
	fmt.Fprintf(stdout, "go:       %s %s\n", v.Go, v.Platform)
	return 0
}
