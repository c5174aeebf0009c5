// Command refport-adapter is the reference port (refport.HostPort) as a stdio adapter,
// through conformancetest.Serve: the main a Go port writes, certified in CI with
// conformance-runner --adapter 'go run ./conformance/internal/refport/refport-adapter' --require-all.
package main

import (
	"log"
	"os"

	"github.com/sessionref-kit/sessionref-kit/conformance/conformancetest"
	"github.com/sessionref-kit/sessionref-kit/conformance/internal/refport"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

func main() {
	profile := ""
	if len(os.Args) > 1 {
		profile = os.Args[1] // a contract release: 0.0.1-rc.1 (default) or 0.1.0-rc.8
	}
	port := refport.HostPort{DirectFirst: profile != "" && profile != "0.0.1-rc.1"}
	if err := conformancetest.ServeProfile(port, protocol.Profile(profile)); err != nil {
		log.Fatal(err)
	}
}
