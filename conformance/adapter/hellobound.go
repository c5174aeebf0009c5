package adapter

import (
	"fmt"
	"unicode/utf8"
)

// The bounds of what a hello's free text keeps: the report prints it in its header, in every
// JUnit suite and on the HTML page, so a hello of megabytes made reports of hundreds.
const (
	maxHelloText    = 256 // name, version, spec: bytes kept (a real one is a few dozen)
	maxFeatureText  = 64  // a feature longer than this is none the protocol names
	maxOtherFeature = 16  // features the kit does not know, kept to be shown (a typo, say)
)

// clipHelloText returns s cut to maxHelloText bytes at a character boundary, saying how
// much was left out.
func clipHelloText(s string) string {
	if len(s) <= maxHelloText {
		return s
	}
	cut := maxHelloText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:cut], len(s)-cut)
}

// boundFeatures keeps every feature the protocol names, once, and at most maxOtherFeature
// others of at most maxFeatureText bytes, in the hello's order.
func boundFeatures(list []string, known func(string) bool) []string {
	var out []string
	seen := map[string]bool{}
	others := 0
	for _, f := range list {
		if seen[f] || len(f) > maxFeatureText {
			continue
		}
		if !known(f) {
			if others == maxOtherFeature {
				continue
			}
			others++
		}
		seen[f] = true
		out = append(out, f)
	}
	return out
}
