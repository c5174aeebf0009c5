package conformancetest_test

import (
	"errors"
	"log"

	"github.com/sessionref-kit/sessionref-kit/conformance/conformancetest"
	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
)

// namedDraft is a first draft that names itself in the hello (goport.Identity); a port's
// own error type carries its code through goport.Coder.
type namedDraft struct{ firstDraft }

func (namedDraft) Identity() (string, string) { return "my-port", "0.1.0" }

type myError struct{ code, msg string }

func (e myError) Error() string                { return e.msg }
func (e myError) SessionReferenceCode() string { return e.code }

func (namedDraft) DecodeURI(u string) (string, error) {
	return "", myError{string(goport.InvalidReference), "not decoded yet: " + u}
}

// A port's main serves it as a stdio adapter, which conformance-runner --adapter certifies:
//
//	go build -o my-port-adapter ./cmd/my-port-adapter
//	conformance-runner --adapter ./my-port-adapter
func ExampleServe() {
	if err := conformancetest.Serve(namedDraft{}); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		log.Fatal(err)
	}
}
