// Package buggy is a port with one realistic bug, for the differential tests, run as a
// command by Main: it serves the embedded reference, except that uri.encode serializes the
// session id with Go's encoding/json instead of JSON.stringify (so "<", ">", "&", U+2028 and
// U+2029 come out as \u escapes, and a lone surrogate as U+FFFD). It declares the
// lone-surrogates feature.
// With -no-cancel it answers requests with a cancel mode ADAPTER_UNSUPPORTED, naming the mode.
//
// The tests that use it register Main as the command "buggy" of their own test binary
// (testscript.Main), which then runs Main when started under that name: nothing is built at
// test time.
package buggy

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

type buggy struct {
	ref      *refadapter.Reference
	noCancel bool
}

func (b buggy) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	if c, ok := req.Arg("cancel"); ok && b.noCancel {
		return protocol.Response{ID: req.ID, Err: &protocol.Error{Code: protocol.CodeUnsupported, Message: fmt.Sprintf("cancel mode %v is not supported", c)}}
	}
	if req.Op == protocol.OpURIEncode {
		if v, ok := req.Args.Get("sessionId"); ok {
			if s, ok := v.(string); ok {
				data, _ := json.Marshal(s)
				return protocol.Response{ID: req.ID, OK: true, Result: uri.EncodeJSON(data)}
			}
		}
	}
	return b.ref.Handle(ctx, req)
}

// Main runs the port: its flags are os.Args[1:]; it returns when stdin ends, or exits.
func Main() {
	flags := flag.NewFlagSet("buggy", flag.ExitOnError)
	profile := flags.String("profile", "", "contract release")
	noCancel := flags.Bool("no-cancel", false, "answer requests with a cancel mode ADAPTER_UNSUPPORTED")
	flags.Parse(os.Args[1:])
	if err := adapter.Serve(context.Background(), os.Stdin, os.Stdout, buggy{ref: &refadapter.Reference{Profile: protocol.Profile(*profile)}, noCancel: *noCancel}); err != nil {
		fmt.Fprintln(os.Stderr, "buggy:", err)
		os.Exit(1)
	}
}
