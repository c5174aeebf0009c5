package tagexpr_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/tagexpr"
)

func TestMatch(t *testing.T) {
	tags := []string{"prepare", "@SR-PREP-1", "SR-ERR-3"}
	for expr, want := range map[string]bool{
		"":                                  true,
		"   ":                               true,
		"@SR-PREP-1":                        true,
		"@SR-PREP-2":                        false,
		"@prepare":                          true,
		"not @prepare":                      false,
		"@SR-PREP-2 or @prepare":            true,
		"@prepare and not @SR-ERR-3":        false,
		"@prepare and not (@uri or @x)":     true,
		"not (@prepare and @SR-ERR-3)":      false,
		"(@uri or @prepare) and @SR-ERR-3":  true,
		"@uri or @prepare and @nothing":     false,
		"@uri or (@prepare and @SR-ERR-3)":  true,
		"not @uri and not @mention":         true,
		"@SR-PREP-2,@prepare":               true, // godog: "," is or
		"@prepare && ~@SR-ERR-3":            false,
		"~@uri":                             true,
		"@uri && @prepare, @SR-ERR-3":       true, // (@uri and @prepare) or @SR-ERR-3
		"@uri && ~@prepare, ~@SR-ERR-3":     false,
		"~@uri and (@prepare, @nothing)":    true, // mixed
		"@prepare&&@SR-ERR-3":               true,
		"@SR-PREP-1 && ~@SR-ERR-3,@nothing": false,
	} {
		e, err := tagexpr.Parse(expr)
		if err != nil {
			t.Errorf("Parse(%q): %v", expr, err)
			continue
		}
		if got := e.Match(tags); got != want {
			t.Errorf("Parse(%q).Match = %v, want %v", expr, got, want)
		}
		if got := tagexpr.Match(expr, tags); got != want {
			t.Errorf("Match(%q) = %v, want %v", expr, got, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{
		"@a and", "and @a", "not", "@a or", "(@a", "@a)", "()", "@a @b", "@a,", ",@a",
		"@a && ", "~", "!@a", "@a || @b", "@a & @b", "@", "@a and (not)", "@a\\x", "uri", "@uri and nott @x", "@a andd @b",
	} {
		e, err := tagexpr.Parse(bad)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want an error", bad, e)
			continue
		}
		var te *tagexpr.Error
		if !asError(err, &te) || te.Expr != bad || !strings.Contains(err.Error(), "bad tag expression") {
			t.Errorf("Parse(%q): error %T %v", bad, err, err)
		}
		if tagexpr.Match(bad, []string{"a", "b"}) {
			t.Errorf("Match(%q) matched", bad)
		}
	}
}

func TestMatchWithoutAt(t *testing.T) {
	// Match (the helper the parts use) takes tags without their "@" too.
	if !tagexpr.Match("prepare && SR-ERR-3", []string{"prepare", "@SR-ERR-3"}) || tagexpr.Match("uri", []string{"prepare"}) {
		t.Error("Match without @")
	}
}

func asError(err error, target **tagexpr.Error) bool {
	e, ok := err.(*tagexpr.Error)
	*target = e
	return ok
}

func ExampleParse() {
	e, err := tagexpr.Parse("@uri and not (@agreement or @SR-URI-3)")
	if err != nil {
		panic(err)
	}
	fmt.Println(e.Match([]string{"uri", "SR-URI-1"}))
	fmt.Println(e.Match([]string{"uri", "agreement"}))
	old := tagexpr.MustParse("@uri && ~@agreement, @mention") // godog's syntax
	fmt.Println(old.Match([]string{"mention"}))
	// Output:
	// true
	// false
	// true
}
