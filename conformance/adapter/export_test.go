package adapter

import "testing"

// UseReaderGoroutine makes the processes tb starts read stdout through a reader goroutine,
// the path of platforms whose pipes have no read deadlines.
func UseReaderGoroutine(tb testing.TB) {
	noDeadlines = true
	tb.Cleanup(func() { noDeadlines = false })
}

// WithMaxResponse returns o with its answer limit set to n bytes (the protocol's is MaxLine).
func WithMaxResponse(o ServeOptions, n int) ServeOptions {
	o.maxResponse = n
	return o
}
