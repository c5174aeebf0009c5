// Command conformance-runner certifies implementations of the session-reference contract.
//
// With no arguments it certifies the embedded Go reference in-process; with --adapter it
// certifies any program speaking the adapter protocol (spec/protocol.md); "conformance-runner
// adapter" serves the embedded reference over that protocol on stdin and stdout. Run it with
// -h for the flags; the exit code is the verdict (0 conformant, 1 not conformant, 2 usage
// error, 3 adapter unusable).
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
