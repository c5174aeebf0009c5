// Package adaptertest starts an adapter process for a test and connects to it, the few lines
// every test that talks to a real adapter (the published package, a kit's example port)
// would otherwise repeat.
package adaptertest

import (
	"context"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
)

// Connect starts argv in dir (timeout per call as adapter.StartProcess takes it; 0 for its
// default), closes it when t ends, and returns a client past hello; a failed start or hello
// fails t with the adapter's stderr. The process is returned too, for its stderr in later
// failures.
func Connect(t testing.TB, argv []string, dir string, timeout time.Duration) (*adapter.Client, *adapter.Process) {
	t.Helper()
	p, err := adapter.StartProcess(argv, dir, timeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	c, err := adapter.Connect(context.Background(), p)
	if err != nil {
		t.Fatalf("%v\n%s", err, p.Stderr())
	}
	return c, p
}
