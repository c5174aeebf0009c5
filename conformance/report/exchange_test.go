package report_test

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/report/internal/reporttest"
)

// exchange and value: reporttest's builders, by their short names in these tests.
var (
	exchange = reporttest.Exchange
	value    = reporttest.Value
)
