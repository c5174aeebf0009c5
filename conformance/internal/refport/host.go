package refport

import (
	"context"

	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
)

// HostPort is the reference port with its host wiring (goport.Host): the message with its
// context first, as 0.0.1-rc.1 delivers it, or after it (DirectFirst, 0.1.0-rc.8).
type HostPort struct {
	Port
	DirectFirst bool
}

// Features implements goport.Port: the reference's, and the host.
func (HostPort) Features() []goport.Feature {
	return append(Port{}.Features(), goport.FeatureHost)
}

// Identity implements goport.Identity.
func (HostPort) Identity() (string, string) { return "refport", "reference" }

// Deliver implements goport.Host (spec SR-HOST-*): the text's mentions parsed, the one text
// block prepared, the direct message and its context in the release's order.
func (h HostPort) Deliver(ctx context.Context, svc goport.Service, agent goport.Agent, text string) ([]goport.HostMessage, error) {
	parsed, err := h.ParseMentions(text)
	if err != nil {
		return nil, err
	}
	refs := make([]goport.Reference, len(parsed.References))
	for i, r := range parsed.References {
		refs[i] = goport.Reference{SessionID: r.SessionID, Label: goport.Some(r.Label)}
	}
	content, err := jsjson.Marshal([]any{jsjson.NewObject().Set("type", "text").Set("text", parsed.Text)})
	if err != nil {
		return nil, err
	}
	p, err := svc.Prepare(ctx, agent, content, refs)
	if err != nil {
		return nil, err
	}
	out := []goport.HostMessage{{Direct: p.Content}}
	switch {
	case p.Context == nil:
	case h.DirectFirst:
		out = append(out, goport.HostMessage{Context: p.Context})
	default:
		out = append([]goport.HostMessage{{Context: p.Context}}, out...)
	}
	return out, nil
}
