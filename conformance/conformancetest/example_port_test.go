package conformancetest_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/sessionref-kit/sessionref-kit/conformance/goport"

	"github.com/sessionref-kit/sessionref-kit/conformance/conformancetest"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// firstDraft is a port's first draft: URIs from encoding/json and encoding/base64, the
// rest not written yet. In a test of its own package the port calls
//
//	func TestConformance(t *testing.T) { conformancetest.TestPort(t, firstDraft{}) }
//
// and every check is a subtest; Certify, below, returns the same verdicts as a report.
type firstDraft struct{}

func (firstDraft) Features() []goport.Feature { return nil } // plain UTF-8 strings

func (firstDraft) EncodeURI(id string) string {
	b, _ := json.Marshal(id) // escapes <, > and & as \u003c …, which JSON.stringify does not
	return "dsh-session:" + base64.RawURLEncoding.EncodeToString(b)
}

func (firstDraft) DecodeURI(string) (string, error) { return "", errors.ErrUnsupported }

func (firstDraft) FormatMention(goport.Reference) string { panic(errors.ErrUnsupported) }

func (firstDraft) ParseMentions(string) (goport.ParsedText, error) {
	return goport.ParsedText{}, errors.ErrUnsupported
}

func (firstDraft) NewService(goport.SessionStore, goport.Config) (goport.Service, error) {
	return nil, errors.ErrUnsupported
}

func ExampleCertify() {
	rep, err := conformancetest.Certify(context.Background(), firstDraft{}, conformancetest.Options{Match: "^fixtures/uri-encode/"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d passed, %d failed, %d not covered\n", rep.Totals.Pass, rep.Totals.Fail, rep.Totals.NotCovered)
	for _, c := range rep.Cases {
		if c.Status != result.Pass {
			fmt.Printf("%s %s: %s\n", c.Status, c.Name, c.Message)
		}
	}
	// Output:
	// 9 passed, 2 failed, 3 not covered
	// fail uri-encode/url-safe-alphabet: result differs
	// fail uri-encode/html-and-line-separators-unescaped: result differs
	// not-covered uri-encode/lone-high-surrogate: the port does not declare goport.FeatureLoneSurrogates
	// not-covered uri-encode/lone-low-surrogate: the port does not declare goport.FeatureLoneSurrogates
	// not-covered uri-encode/reversed-pair: the port does not declare goport.FeatureLoneSurrogates
}
