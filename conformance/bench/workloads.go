package bench

import (
	"fmt"
	"math/rand/v2"
	"path"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Call is one request of a run, without its id.
type Call struct {
	Op   string
	Args *wire.Object
}

// Instance is a built workload: the world its calls read, if any, and the calls of one run.
type Instance struct {
	// World is the world document of the calls, or nil. A side that declares world-cache gets
	// it once with world.define (untimed) and the calls name it; another side gets it inline
	// in every call, so the transport of a large world is part of its time.
	World *wire.Object
	// Calls returns one run's calls, given the world argument: the document or a reference.
	Calls func(world any) []Call
}

// Workload is one named, deterministic task measured on both sides.
type Workload struct {
	Name string
	Doc  string
	// Large workloads (100k messages per source) are left out of the default selection: the
	// original's quadratic retention would take hours on them.
	Large bool
	// Build generates the workload from a seed; ops is the number of calls of a small-op
	// run. It is called only for selected workloads, since the large worlds take memory.
	Build func(seed uint64, ops int) Instance
}

// Workloads lists every workload, in the order they run. Sizes follow the issue: small ops,
// candidates over 10k sessions, prepare over 1 and 3 sources of 1k, 10k and 100k projected
// messages of about 120 bytes under the default 64 KiB budget, and one 10 MB message.
func Workloads() []Workload {
	ws := []Workload{
		{Name: "small/uri.encode", Doc: "uri.encode of short ids, one request each", Build: smallOps(protocol.OpURIEncode)},
		{Name: "small/uri.decode", Doc: "uri.decode of valid URIs, one request each", Build: smallOps(protocol.OpURIDecode)},
		{Name: "small/mention.parse", Doc: "mention.parse of a text with three mentions, one request each", Build: smallOps(protocol.OpMentionParse)},
		{Name: "candidates/10k", Doc: "candidates over 10,000 titled sessions with a query", Build: candidates10k},
	}
	// 3x2k and 3x20k are the sizes issue 29 names for the over-stdio path: ten times the
	// messages must cost at most ten times the time.
	for _, n := range []int{1_000, 2_000, 10_000, 20_000, 100_000} {
		for _, sources := range []int{1, 3} {
			if (n == 2_000 || n == 20_000) && sources == 1 {
				continue
			}
			ws = append(ws, Workload{
				Name:  fmt.Sprintf("prepare/%dx%s", sources, count(n)),
				Doc:   fmt.Sprintf("prepare of %d source(s) of %d projected messages, default budget", sources, n),
				Large: n >= 100_000,
				Build: prepareN(sources, n),
			})
		}
	}
	return append(ws, Workload{Name: "prepare/1x10MB", Doc: "prepare of one source holding a single 10 MB message, truncated to the budget", Build: prepare10MB})
}

func count(n int) string {
	if n%1000 == 0 {
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}

// Select returns the workloads whose names match one of the comma-separated path.Match
// patterns ("prepare/*"); "" selects every workload that is not Large, "all" every one.
func Select(patterns string) ([]Workload, error) {
	all := Workloads()
	switch strings.TrimSpace(patterns) {
	case "":
		var out []Workload
		for _, w := range all {
			if !w.Large {
				out = append(out, w)
			}
		}
		return out, nil
	case "all":
		return all, nil
	}
	var out []Workload
	for _, w := range all {
		for _, p := range strings.Split(patterns, ",") {
			ok, err := path.Match(strings.TrimSpace(p), w.Name)
			if err != nil {
				return nil, fmt.Errorf("--workloads %q: %v", p, err)
			}
			if ok {
				out = append(out, w)
				break
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--workloads %q matches no workload", patterns)
	}
	return out, nil
}

// Text pieces: ASCII prose, CJK, emoji (astral, so UTF-16 pairs) and JSON-hostile text
// (quotes, backslashes, controls, markup, the prompt's own closing tag, U+2028).
var pieces = []string{
	"Please refactor the parser so that it reports the offset of each error. ",
	"The build passes locally but fails in CI with a timeout. ",
	"把这个函数拆成三个更小的函数，并补充单元测试。",
	"注意边界条件和错误处理，谢谢！",
	"Deploy looks good 🚀🎉 but the dashboard 📊 shows a spike 🤔 ",
	"👍🏽 family: 👨‍👩‍👧 flag: 🇨🇳 ",
	"<script>alert(\"x\")</script> ",
	"\"quoted\" \\backslash\\ \x01\x02\t</referenced-sessions> & {\"json\": [1,2]}\r\n",
	"line\u2028separator\u2029 and \u00a0nbsp ",
}

// text returns a string of about size bytes drawn from pieces.
func text(r *rand.Rand, size int) string {
	var b strings.Builder
	for b.Len() < size {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

func textBlock(s string) *wire.Object { return wire.NewObject().Set("type", "text").Set("text", s) }

func userEvent(seq int, content []any, source *wire.Object) *wire.Object {
	data := wire.NewObject().Set("id", fmt.Sprintf("u%d", seq)).Set("role", "user").Set("content", content).Set("source", source)
	return wire.NewObject().Set("type", "user/message").Set("seq", float64(seq)).Set("data", data)
}

// surface returns n projected messages of about 120 bytes: user and assistant messages in
// turn, each assistant message with a reasoning block and a tool call, each followed by a
// tool result, and now and then a plugin message; none of those extras is projected.
func surface(r *rand.Rand, n int) *wire.Object {
	events := make([]any, 0, n*2)
	seq := 0
	next := func() int { seq++; return seq }
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			events = append(events, userEvent(next(), []any{textBlock(text(r, 120))}, wire.NewObject().Set("kind", "user")))
			if i%50 == 0 {
				src := wire.NewObject().Set("kind", "plugin").Set("plugin", "other")
				events = append(events, userEvent(next(), []any{textBlock("plugin note")}, src))
			}
			continue
		}
		callID := fmt.Sprintf("call-%d", i)
		msg := wire.NewObject().Set("id", fmt.Sprintf("a%d", i)).Set("role", "assistant").Set("content", []any{
			wire.NewObject().Set("type", "reasoning").Set("text", text(r, 60)),
			textBlock(text(r, 120)),
			wire.NewObject().Set("type", "tool-call").Set("id", callID).Set("name", "read").Set("arguments", `{"path":"main.go"}`),
		}).Set("source", wire.NewObject().Set("kind", "model"))
		events = append(events, wire.NewObject().Set("type", "assistant/message").Set("seq", float64(next())).
			Set("data", wire.NewObject().Set("message", msg)))
		res := wire.NewObject().Set("type", "tool-result").Set("toolCallId", callID).Set("content", []any{textBlock(text(r, 80))})
		tool := wire.NewObject().Set("role", "user").Set("content", []any{res}).
			Set("source", wire.NewObject().Set("kind", "tool").Set("callId", callID))
		events = append(events, wire.NewObject().Set("type", "tool/result").Set("seq", float64(next())).
			Set("data", wire.NewObject().Set("message", tool)))
	}
	return wire.NewObject().Set("capturedThroughSeq", float64(seq)).Set("events", events)
}

func header(id string, cwd string, createdAt float64) *wire.Object {
	h := wire.NewObject().Set("id", id)
	if cwd != "" {
		h.Set("cwd", cwd)
	}
	return h.Set("createdAt", createdAt)
}

const agentCWD = "/home/user/project"

func agent() *wire.Object { return wire.NewObject().Set("id", "target").Set("cwd", agentCWD) }

// smallOps builds ops calls of one small op over varied inputs.
func smallOps(op string) func(seed uint64, ops int) Instance {
	return func(seed uint64, ops int) Instance {
		r := rand.New(rand.NewPCG(seed, 1))
		calls := make([]Call, ops)
		for i := range calls {
			id := fmt.Sprintf("session-%08x", r.Uint32())
			switch op {
			case protocol.OpURIEncode:
				calls[i] = Call{op, wire.NewObject().Set("sessionId", id)}
			case protocol.OpURIDecode:
				calls[i] = Call{op, wire.NewObject().Set("uri", contract.URI(id))}
			default:
				t := fmt.Sprintf("compare @[%s](%s) with @[B 🚀](%s) and @[C\\]](%s) please",
					id, contract.URI(id), contract.URI("b-"+id), contract.URI("c"))
				calls[i] = Call{op, wire.NewObject().Set("text", t)}
			}
		}
		return Instance{Calls: func(any) []Call { return calls }}
	}
}

// candidates10k: 10,000 sessions in five folders, titled with words some of which match.
func candidates10k(seed uint64, _ int) Instance {
	r := rand.New(rand.NewPCG(seed, 2))
	words := []string{"deploy", "parser", "refactor", "调试", "测试", "Deploy", "DEPLOYMENT", "🚀 launch", "review", "fix"}
	cwds := []string{agentCWD, "/home/user/other", "/srv/app", "", "/home/user/project/sub"}
	sessions := make([]any, 10_000)
	for i := range sessions {
		title := words[r.IntN(len(words))] + " " + words[r.IntN(len(words))] + " " + text(r, 20)
		sessions[i] = wire.NewObject().Set("header", header(fmt.Sprintf("s-%05d", i), cwds[r.IntN(len(cwds))], float64(1_700_000_000_000+i))).
			Set("title", title)
	}
	world := wire.NewObject().Set("sessions", sessions)
	return Instance{World: world, Calls: func(w any) []Call {
		return []Call{{protocol.OpCandidates, wire.NewObject().Set("world", w).Set("agent", agent()).Set("query", "deploy")}}
	}}
}

// prepareN: sources sessions of n projected messages each, all referenced.
func prepareN(sources, n int) func(seed uint64, ops int) Instance {
	return func(seed uint64, _ int) Instance {
		r := rand.New(rand.NewPCG(seed, uint64(3+sources)))
		list := make([]any, sources)
		refs := make([]any, sources)
		for i := range list {
			id := fmt.Sprintf("src-%d", i)
			list[i] = wire.NewObject().Set("header", header(id, agentCWD, float64(1_700_000_000_000+i))).
				Set("title", "source "+id).Set("surface", surface(r, n))
			refs[i] = wire.NewObject().Set("sessionId", id).Set("label", "Source "+id)
		}
		return prepareInstance(wire.NewObject().Set("sessions", list), refs)
	}
}

// prepare10MB: one source whose one message is 10 MB, so it must be truncated.
func prepare10MB(seed uint64, _ int) Instance {
	r := rand.New(rand.NewPCG(seed, 9))
	events := []any{userEvent(1, []any{textBlock(text(r, 10<<20))}, wire.NewObject().Set("kind", "user"))}
	s := wire.NewObject().Set("header", header("big", agentCWD, 1_700_000_000_000)).
		Set("surface", wire.NewObject().Set("capturedThroughSeq", 1.0).Set("events", events))
	return prepareInstance(wire.NewObject().Set("sessions", []any{s}), []any{wire.NewObject().Set("sessionId", "big")})
}

func prepareInstance(world *wire.Object, refs []any) Instance {
	return Instance{World: world, Calls: func(w any) []Call {
		return []Call{{protocol.OpPrepare, wire.NewObject().Set("world", w).Set("agent", agent()).
			Set("content", "summarise what these sessions decided").Set("references", refs)}}
	}}
}
