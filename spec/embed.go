// Package spec embeds the kit's specifications: the session-reference contract
// (session-reference.md), the fixture format (fixtures.md) and the adapter protocol.
package spec

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
