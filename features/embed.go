// Package features embeds the Gherkin features: the contract's executable examples.
package features

import "embed"

// FS holds every *.feature file of this folder.
//
//go:embed *.feature
var FS embed.FS
