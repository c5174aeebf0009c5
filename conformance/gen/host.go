package gen

import (
	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// HostSend draws a host.send request: a world, a target agent idle or running, text that
// mentions the world's sessions (and sometimes the agent, unknown ids or broken mentions), an
// optional budget, and mutations of the sources after the send (append, compact, delete), so
// the durable log's immutability is exercised.
func HostSend(t *rapid.T, o Options) protocol.Request {
	w := World(t, "world", o)
	agent := Agent(t, "agent", o)
	args := wire.NewObject().Set("world", w.Value()).Set("agent", agent).
		Set("running", rapid.Bool().Draw(t, "running")).Set("text", hostText(t, w, agent, o))
	if rapid.IntRange(0, 2).Draw(t, "config?") == 0 {
		args.Set("config", BudgetConfig(t, "config"))
	}
	if len(w.Sessions) > 0 && rapid.Bool().Draw(t, "mutations?") {
		n := rapid.IntRange(1, 3).Draw(t, "mutations")
		list := make([]any, 0, n)
		for i := 0; i < n; i++ {
			id := rapid.SampledFrom(w.Sessions).Draw(t, "mutated").Header.ID
			m := wire.NewObject()
			switch rapid.IntRange(0, 2).Draw(t, "mutation") {
			case 0:
				m.Set("op", "append").Set("sessionId", id).Set("events", Events(t, "appended", o))
			case 1:
				m.Set("op", "compact").Set("sessionId", id).Set("summary", String(t, "summary", o, 4))
			default:
				m.Set("op", "delete").Set("sessionId", id)
			}
			list = append(list, m)
			if m2, _ := m.Get("op"); m2 == "delete" {
				break // a deleted session cannot be mutated again
			}
		}
		args.Set("mutations", list)
	}
	return protocol.Request{Op: protocol.OpHostSend, Args: must(args).(*wire.Object)}
}

// hostText draws message text whose mentions mostly name sessions of the world.
func hostText(t *rapid.T, w *protocol.World, agent *wire.Object, o Options) string {
	n := rapid.IntRange(0, 4).Draw(t, "textParts")
	var b wire.Builder
	for i := 0; i < n; i++ {
		switch k := rapid.IntRange(0, 5).Draw(t, "textPart"); {
		case k < 3 && len(w.Sessions) > 0:
			id := rapid.SampledFrom(w.Sessions).Draw(t, "mentioned").Header.ID
			b.WriteString(contract.Mention(id, String(t, "mentionLabel", o, 3)))
		case k == 3:
			id, _ := agent.Get("id")
			if rapid.IntRange(0, 3).Draw(t, "self?") == 0 {
				b.WriteString(contract.Mention(id.(string), "me"))
			}
		case k == 4:
			b.WriteString(Text(t, "prose", o))
		default:
			b.WriteString(String(t, "plain", o, 4))
		}
		b.WriteString(" ")
	}
	return b.String()
}
