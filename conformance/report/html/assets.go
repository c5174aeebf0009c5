package html

import _ "embed"

// css styles the page for screens and for print; status colours meet WCAG AA contrast and
// always come with a symbol and a word.
//
//go:embed page.css
var css string

// script shows the filter bar and applies it; without it the page shows everything.
//
//go:embed page.js
var script string
