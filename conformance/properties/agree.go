package properties

import (
	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// agreementProperties are the kit's strongest check: on every generated request the adapter
// answers what the embedded reference answers (compare.Diff: results as JSON values, errors by
// code and extra keys). The reference was verified against the original package on 21,000
// generated requests, so a disagreement is a divergence from the original.
func agreementProperties() []Property {
	ops := []struct{ op, area string }{
		{protocol.OpURIEncode, "uri"},
		{protocol.OpURIDecode, "uri"},
		{protocol.OpMentionFormat, "mention"},
		{protocol.OpMentionParse, "mention"},
		{protocol.OpConfig, "config"},
		{protocol.OpCandidates, "candidates"},
		{protocol.OpPrepare, "prepare"},
	}
	var out []Property
	for _, o := range ops {
		out = append(out, Property{
			Name: o.op + "/agrees-with-reference", Area: o.area, Tags: []string{"agreement"},
			check: func(e *env, t *rapid.T) { e.agree(t, gen.Request(t, o.op, e.gen)) },
		})
	}
	out = append(out, Property{
		Name: protocol.OpHostSend + "/agrees-with-reference", Area: "host", Feature: protocol.FeatureHost,
		Requirements: []string{"SR-HOST-1", "SR-HOST-2", "SR-HOST-4"}, Tags: []string{"agreement"},
		check: func(e *env, t *rapid.T) { e.agree(t, gen.HostSend(t, e.gen)) },
	})
	return out
}
