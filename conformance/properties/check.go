package properties

import "pgregory.net/rapid"

// Check runs one rapid check of body outside `go test`, configured like Run: opts.Checks
// inputs (DefaultChecks when 0, unless -rapid.checks was set), base seed seed (see Seed),
// opts.ShrinkTime, no fail file. It returns whether the check failed and rapid's log (its
// verdict and the failing, shrunk input's messages). Rapid replays the minimal failing input
// last, so a body that records its evidence on failure ends holding the shrunk one.
//
// Like Run, it holds a process-wide lock while rapid's global flags are set; other fields of
// opts are ignored.
func Check(name string, opts Options, seed uint64, body func(t *rapid.T)) (failed bool, log string) {
	rapidMu.Lock()
	defer rapidMu.Unlock()
	ensureFlags()
	restore := setRapidFlags(opts, seed)
	defer restore()
	tb := &recordingTB{name: name}
	func() {
		defer func() {
			if r := recover(); r != nil && r != errFailNow {
				panic(r)
			}
		}()
		rapid.Check(tb, body)
	}()
	return tb.failed, tb.log.String()
}
