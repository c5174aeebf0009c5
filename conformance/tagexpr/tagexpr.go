// Package tagexpr parses and matches the tag expressions that select checks across the
// runner's parts, so one --tags selects scenarios, fixture cases and properties alike.
//
// The syntax is Cucumber's tag expressions (github.com/cucumber/tag-expressions): "@a and not
// (@b or @c)". godog's older syntax is still accepted and means the same as before: ","
// separates alternatives, "&&" joins terms, "~" negates one ("@a && ~@b, @c" is
// "@a and not @b or @c"). The two may be mixed. Tags are compared without their "@", which
// is optional on both sides.
package tagexpr

import (
	"fmt"
	"strings"

	tagexpressions "github.com/cucumber/tag-expressions/go/v6"
)

// Expr is a parsed tag expression.
type Expr struct {
	src  string
	eval tagexpressions.Evaluatable // nil: matches everything
}

// Error is a tag expression that does not parse.
type Error struct {
	Expr   string // the expression as given
	Reason string
}

// Error implements the error interface.
func (e *Error) Error() string {
	return fmt.Sprintf("bad tag expression %q: %s (want e.g. '@uri and not (@agreement or @SR-URI-3)')", e.Expr, e.Reason)
}

// Parse parses expr. The empty expression matches everything. Every tag must be written
// with its "@", so a word that is no operator ("uri and nott @x") is an error, not a tag.
func Parse(expr string) (Expr, error) { return parse(expr, true) }

func parse(expr string, strict bool) (Expr, error) {
	e := Expr{src: expr}
	std := translate(expr)
	if strings.TrimSpace(std) == "" {
		return e, nil
	}
	if err := checkTokens(expr, std, strict); err != nil {
		return e, err
	}
	var err error
	func() {
		// The parser panics on some malformed input (a trailing "and"); that is a usage
		// error, never a crash.
		defer func() {
			if r := recover(); r != nil {
				err = &Error{Expr: expr, Reason: "incomplete expression"}
			}
		}()
		var perr error
		e.eval, perr = tagexpressions.Parse(std)
		if perr != nil {
			err = &Error{Expr: expr, Reason: strings.TrimSuffix(reason(perr.Error()), ".")}
		}
	}()
	return e, err
}

// reason keeps the parser's explanation without repeating the expression.
func reason(msg string) string {
	if _, after, ok := strings.Cut(msg, "syntax error: "); ok {
		return after
	}
	return msg
}

// MustParse is Parse for expressions known to be valid; it panics otherwise.
func MustParse(expr string) Expr {
	e, err := Parse(expr)
	if err != nil {
		panic(err)
	}
	return e
}

// String returns the expression as given.
func (e Expr) String() string { return e.src }

// Match reports whether tags satisfy e.
func (e Expr) Match(tags []string) bool {
	if e.eval == nil {
		return true
	}
	vars := make([]string, 0, 2*len(tags))
	for _, t := range tags {
		t = strings.TrimPrefix(t, "@")
		vars = append(vars, t, "@"+t)
	}
	return e.eval.Evaluate(vars)
}

// Match reports whether tags satisfy expr, where the "@" of a tag may be left out. An
// expression that does not parse matches nothing; callers validate with Parse first.
func Match(expr string, tags []string) bool {
	e, err := parse(expr, false)
	return err == nil && e.Match(tags)
}

// translate rewrites godog's operators into Cucumber's: "," to "or", "&&" to "and", a "~"
// before a tag to "not".
func translate(expr string) string {
	var b strings.Builder
	for i := 0; i < len(expr); i++ {
		switch {
		case expr[i] == '\\' && i+1 < len(expr):
			b.WriteString(expr[i : i+2])
			i++
		case expr[i] == ',':
			b.WriteString(" or ")
		case strings.HasPrefix(expr[i:], "&&"):
			b.WriteString(" and ")
			i++
		case expr[i] == '~':
			b.WriteString(" not ")
		default:
			b.WriteByte(expr[i])
		}
	}
	return b.String()
}

// checkTokens rejects what the Cucumber parser would take as a tag but is surely a typo: a
// bare operator of another language ("!", "||", "&") and, when strict, a word without "@".
func checkTokens(orig, std string, strict bool) error {
	for _, tok := range strings.FieldsFunc(std, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '(' || r == ')' }) {
		switch {
		case tok == "!" || tok == "|" || tok == "||" || tok == "&" || strings.HasPrefix(tok, "!"):
			return &Error{Expr: orig, Reason: fmt.Sprintf("%q is not an operator: use and, or, not", tok)}
		case strings.Trim(tok, "@") == "":
			return &Error{Expr: orig, Reason: "an empty tag"}
		case strict && tok != "and" && tok != "or" && tok != "not" && !strings.HasPrefix(tok, "@"):
			return &Error{Expr: orig, Reason: fmt.Sprintf("%q is neither a tag (@%s) nor and, or, not", tok, strings.TrimLeft(tok, "\\"))}
		}
	}
	return nil
}
