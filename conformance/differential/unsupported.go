package differential

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"time"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/properties"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// UnsupportedExample is one group of requests a side answered ADAPTER_UNSUPPORTED, with the
// same message, and the smallest request rapid shrank the group to: what the side does not
// support, shown rather than counted.
type UnsupportedExample struct {
	// Side is "A" or "B"; Message is the side's message, digits folded to "#".
	Side, Message string
	// Count is the number of generated requests in the group.
	Count int
	// Request is the shrunk request (id 0).
	Request protocol.Request
}

// MaxUnsupportedExamples is the number of groups shrunk per op; the others are counted.
const MaxUnsupportedExamples = 3

// unsupportedShrinkTime bounds the shrinking of one group: examples inform, they decide
// nothing, so they get less time than a difference.
const unsupportedShrinkTime = 3 * time.Second

type unsupportedGroups struct {
	order []string
	by    map[string]*UnsupportedExample
}

var digits = regexp.MustCompile(`[0-9]+`)

func unsupportedKey(side string, r protocol.Response) (key, msg string) {
	msg = strings.TrimSpace(digits.ReplaceAllString(firstLine(r.Err.Message), "#"))
	if len(msg) > 120 {
		msg = msg[:120] + "…"
	}
	return side + "\x00" + msg, msg
}

// add records an unsupported answer of a (preferred) or b.
func (g *unsupportedGroups) add(req protocol.Request, ra, rb protocol.Response) {
	side, r := "A", ra
	if !adapter.Unsupported(ra) {
		side, r = "B", rb
	}
	key, msg := unsupportedKey(side, r)
	if g.by == nil {
		g.by = map[string]*UnsupportedExample{}
	}
	e := g.by[key]
	if e == nil {
		e = &UnsupportedExample{Side: side, Message: msg, Request: protocol.Request{Op: req.Op, Args: req.Args}}
		g.by[key] = e
		g.order = append(g.order, key)
	}
	e.Count++
}

// shrinkUnsupported shrinks the largest groups: it reruns the op's generator with the same
// seed, failing on the first request the same side answers unsupported with the same message,
// so rapid minimises that request. A group that does not reproduce keeps its first request.
func shrinkUnsupported(ctx context.Context, a, b *adapter.Client, op string, g gen.Options, popts properties.Options, seed uint64, groups *unsupportedGroups) []UnsupportedExample {
	if len(groups.order) == 0 {
		return nil
	}
	keys := slices.Clone(groups.order)
	slices.SortStableFunc(keys, func(x, y string) int { return groups.by[y].Count - groups.by[x].Count })
	var out []UnsupportedExample
	for i, key := range keys {
		e := *groups.by[key]
		if i < MaxUnsupportedExamples && ctx.Err() == nil {
			c := a
			if e.Side == "B" {
				c = b
			}
			popts := popts
			popts.ShrinkTime = min(cmpOr(popts.ShrinkTime, unsupportedShrinkTime), unsupportedShrinkTime)
			var found *protocol.Request
			properties.Check("unsupported/"+op, popts, seed, func(t *rapid.T) {
				if ctx.Err() != nil {
					return
				}
				req := gen.Request(t, op, g)
				resp, err := c.Do(ctx, req.Op, req.Args)
				if err != nil || !adapter.Unsupported(resp) {
					return
				}
				if k, _ := unsupportedKey(e.Side, resp); k == key {
					found = &protocol.Request{Op: op, Args: req.Args}
					t.Fatalf("unsupported")
				}
			})
			if found != nil {
				e.Request = *found
			}
		}
		out = append(out, e)
	}
	return out
}

func cmpOr(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
