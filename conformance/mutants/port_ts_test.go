package mutants

import (
	"regexp"
	"slices"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

// tsMutants are the mistakes found by porting the contract to TypeScript from the spec
// alone: each passed every fixed check before the cases that now kill it were added.
func tsMutants() []mutant {
	return append(jsObjectMutants(),
		mutant{name: "trap/ts-trim-blank-message", mistake: "TypeScript projection skips a message when !text.trim(): messages of blanks only are dropped", handler: &blankSkipped{}},
		trap("trap/ts-string-match-query", "TypeScript field.toLowerCase().match(needle): the query read as a regular expression (Go's RE2 stands in; an invalid pattern matches nothing)", trapKnobs{contains: patternContains}),
	)
}

// patternContains is String.prototype.match with a string argument: the needle compiled as
// a regular expression. A needle without metacharacters matches as itself, code unit for
// code unit, as it does in JavaScript (Go's regexp would read lone surrogates otherwise).
func patternContains(h, n string) bool {
	if !strings.ContainsAny(n, `.+*?|[](){}^$\`) {
		hu, nu := jsstring.UTF16(h), jsstring.UTF16(n)
		for i := 0; i+len(nu) <= len(hu); i++ {
			if slices.Equal(hu[i:i+len(nu)], nu) {
				return true
			}
		}
		return false
	}
	re, err := regexp.Compile(n)
	if err != nil {
		return false // JavaScript throws a SyntaxError: not the contract's answer either
	}
	return re.MatchString(h)
}
