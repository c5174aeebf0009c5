package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/pflag"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// selection holds the flags that choose checks, shared by a run and list.
type selection struct {
	parts   []string
	tags    []string
	run     []string
	skip    []string
	shard   string
	profile string
}

func (s *selection) register(fs *pflag.FlagSet) {
	fs.StringSliceVar(&s.parts, "part", nil, "")
	fs.StringArrayVar(&s.tags, "tags", nil, "")
	fs.StringArrayVar(&s.run, "run", nil, "")
	fs.StringArrayVar(&s.skip, "skip", nil, "")
	fs.StringVar(&s.shard, "shard", "", "")
	fs.StringVar(&s.profile, "profile", "", "")
}

// apply sets r's selection from the flags: repeated and comma-separated --part, --run and
// --skip values add up (a check is selected when any --run matches it), repeated --tags
// must all hold.
func (s *selection) apply(r *conformance.Runner) error {
	r.Profile = protocol.Profile(s.profile) // parsed by NewRunner, as for a Runner built in Go
	for _, p := range s.parts {
		if p = strings.TrimSpace(p); p != "" {
			r.Parts = append(r.Parts, p)
		}
	}
	r.Tags = andTags(s.tags)
	var err error
	if r.Match, err = anyRegexp("--run", s.run); err != nil {
		return err
	}
	if r.Skip, err = anyRegexp("--skip", s.skip); err != nil {
		return err
	}
	r.Shard, r.Shards, err = parseShard(s.shard)
	return err
}

// andTags joins repeated --tags: every one must hold, as with cucumber's --tags.
func andTags(exprs []string) string {
	var keep []string
	for _, e := range exprs {
		if strings.TrimSpace(e) != "" {
			keep = append(keep, e)
		}
	}
	if len(keep) == 1 {
		return keep[0]
	}
	for i, e := range keep {
		keep[i] = "(" + e + ")"
	}
	return strings.Join(keep, " and ")
}

// anyRegexp joins the regular expressions of repeated or comma-separated values into one
// that matches what any of them matches. Commas inside brackets, braces or parentheses (a
// quantifier {1,3}, a class [,;]) and after a backslash belong to the expression.
func anyRegexp(flag string, values []string) (string, error) {
	var res []string
	for _, v := range values {
		for _, re := range splitTopCommas(v) {
			if strings.TrimSpace(re) == "" {
				continue
			}
			if _, err := regexp.Compile(re); err != nil {
				return "", fmt.Errorf("%s %q: %v", flag, re, err)
			}
			res = append(res, re)
		}
	}
	switch len(res) {
	case 0:
		return "", nil
	case 1:
		return res[0], nil
	}
	for i, re := range res {
		res[i] = "(?:" + re + ")"
	}
	return strings.Join(res, "|"), nil
}

func splitTopCommas(s string) []string {
	var out []string
	depth, start, class := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case class:
			class = c != ']'
		case c == '[':
			class = true
		case c == '(' || c == '{':
			depth++
		case (c == ')' || c == '}') && depth > 0:
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// adapterFlags are the ways to name the adapter command.
type adapterFlags struct {
	command string
	args    []string
}

func (a *adapterFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&a.command, "adapter", "", "")
	fs.StringArrayVar(&a.args, "adapter-arg", nil, "")
}

// argv returns the adapter's argv from --adapter, --adapter-arg and what follows "--"
// (dash, nil when there was no "--"). With --adapter-arg or "--", nothing is split, so no
// quoting is needed; a lone --adapter that is a path (it has a separator) to an existing
// file is that file, backslashes and blanks included; otherwise --adapter is split into
// words (splitCommand). A bare name is split too, and found on $PATH as a shell would.
func (a *adapterFlags) argv(dash []string, dir string) ([]string, error) {
	switch {
	case dash != nil:
		if a.command != "" || len(a.args) > 0 {
			return nil, errors.New("give the adapter either after -- or with --adapter, not both")
		}
		if len(dash) == 0 {
			return nil, errors.New("nothing after --: want the adapter's program and arguments")
		}
		return dash, nil
	case len(a.args) > 0:
		if a.command == "" {
			return nil, errors.New("--adapter-arg needs --adapter PROGRAM")
		}
		return append([]string{a.command}, a.args...), nil
	case a.command == "":
		return nil, nil
	}
	// Relative paths are the adapter's, resolved in its working directory.
	path := a.command
	if dir != "" && !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && strings.ContainsAny(a.command, `/\`) {
		return []string{a.command}, nil
	}
	argv, err := splitCommand(a.command)
	if err != nil {
		return nil, fmt.Errorf("--adapter: %v", err)
	}
	return argv, nil
}
