// Package spec embeds the kit's specifications: the session-reference contract
// (session-reference.md), the fixture format (fixtures.md) and the adapter protocol.
package spec

// The check lists under the requirements of session-reference.md are generated from the
// features, fixtures, properties and examples; regenerate them after adding checks.
//
//go:generate go test ../conformance/trace -run TestSpecChecks -update

import "embed"

// FS holds every *.md file of this folder.
//
//go:embed *.md
var FS embed.FS

// Schemas holds the JSON Schemas of the adapter protocol and the fixture format, as
// schema/NAME.schema.json.
//
//go:embed schema/*.json
var Schemas embed.FS
