package gen

import (
	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

var cwdPool = []string{"/work/a", "/work/b", "/WORK/A", "/home/ΣΑΣ", "C:\\dir", ""}

// World draws a world: up to six sessions with distinct ids, optional cwds, titles (or title
// failures), surfaces (or read failures), and now and then a listing failure.
func World(t *rapid.T, label string, o Options) *protocol.World {
	n := rapid.IntRange(0, 6).Draw(t, label+".sessions")
	w := &protocol.World{}
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		id := ID(t, label+".id", o)
		if seen[id] {
			continue
		}
		seen[id] = true
		s := protocol.Session{Header: protocol.Header{ID: id, CreatedAt: Number(t, label+".createdAt")}}
		if rapid.IntRange(0, 3).Draw(t, label+".cwd?") > 0 {
			c := rapid.SampledFrom(cwdPool).Draw(t, label+".cwd")
			if rapid.IntRange(0, 5).Draw(t, label+".cwdHostile?") == 0 {
				c = String(t, label+".cwdText", o, 3)
			}
			s.Header.CWD = &c
		}
		switch rapid.IntRange(0, 5).Draw(t, label+".title?") {
		case 0:
		case 1:
			e := "title read failed"
			s.TitleError = &e
		case 2:
			empty := ""
			s.Title = &empty
		default:
			title := String(t, label+".title", o, 4)
			s.Title = &title
		}
		if rapid.IntRange(0, 9).Draw(t, label+".readError?") == 9 { // shrinks to a readable session
			e := "surface read failed"
			s.ReadError = &e
		} else if rapid.IntRange(0, 7).Draw(t, label+".surface?") > 0 {
			surf := protocol.Surface{Events: Events(t, label+".events", o)}
			if rapid.IntRange(0, 4).Draw(t, label+".seq?") > 0 {
				seq := Number(t, label+".seq")
				surf.CapturedThroughSeq = &seq
			}
			s.Surface = &surf
		}
		w.Sessions = append(w.Sessions, s)
	}
	if rapid.IntRange(0, 14).Draw(t, label+".listError?") == 14 { // shrinks to a listing that works
		e := "listing failed"
		w.ListError = &e
	}
	return w
}

// Events draws a surface: direct user messages, compact checkpoints, plugin and other user
// messages, assistant messages with text, reasoning and tool calls, and tool results.
func Events(t *rapid.T, label string, o Options) []any {
	// A slice generator, not a drawn count and a loop: rapid's shrinker deletes elements
	// of a slice, so a shrunk surface keeps only the events that matter.
	ev := rapid.Custom(func(t *rapid.T) *wire.Object { return event(t, label, o) })
	var list []*wire.Object
	if rapid.IntRange(0, 9).Draw(t, label+".long?") == 9 {
		list = rapid.SliceOfN(ev, 20, 80).Draw(t, label+".longEvents")
	} else {
		list = rapid.SliceOfN(ev, 0, 12).Draw(t, label+".events")
	}
	events := make([]any, len(list))
	for i, e := range list {
		events[i] = e.Set("seq", float64(i+1))
	}
	return events
}

// event draws one surface event; Events numbers them.
func event(t *rapid.T, label string, o Options) *wire.Object {
	const seq = 0.0
	switch rapid.IntRange(0, 9).Draw(t, label+".type") {
	case 0, 1, 2:
		return userMessage(seq, blocks(t, label, o), wire.NewObject().Set("kind", "user"))
	case 3:
		src := wire.NewObject().Set("kind", "plugin").Set("plugin", "compact").Set("compactionId", "c1")
		return userMessage(seq, blocks(t, label, o), src)
	case 4:
		src := rapid.SampledFrom([]*wire.Object{
			wire.NewObject().Set("kind", "plugin").Set("plugin", "other"),
			wire.NewObject().Set("kind", "context"),
			wire.NewObject().Set("kind", "session-reference"),
			wire.NewObject().Set("kind", "plugin"),
		}).Draw(t, label+".source")
		return userMessage(seq, blocks(t, label, o), src)
	case 5, 6, 7:
		msg := wire.NewObject().Set("id", "m").Set("role", "assistant").
			Set("content", blocks(t, label, o)).Set("source", wire.NewObject().Set("kind", "model"))
		return wire.NewObject().Set("type", "assistant/message").Set("seq", seq).
			Set("data", wire.NewObject().Set("message", msg))
	default:
		res := wire.NewObject().Set("type", "tool-result").Set("toolCallId", "c1").
			Set("content", []any{textBlock(String(t, label+".tool", o, 3))})
		msg := wire.NewObject().Set("role", "user").Set("content", []any{res}).
			Set("source", wire.NewObject().Set("kind", "tool").Set("callId", "c1"))
		return wire.NewObject().Set("type", "tool/result").Set("seq", seq).
			Set("data", wire.NewObject().Set("message", msg))
	}
}

func userMessage(seq float64, content []any, source *wire.Object) *wire.Object {
	data := wire.NewObject().Set("id", "m").Set("role", "user").Set("content", content).Set("source", source)
	return wire.NewObject().Set("type", "user/message").Set("seq", seq).Set("data", data)
}

func textBlock(s string) *wire.Object { return wire.NewObject().Set("type", "text").Set("text", s) }

func blocks(t *rapid.T, label string, o Options) []any {
	n := rapid.IntRange(0, 3).Draw(t, label+".blocks")
	out := make([]any, 0, n)
	for i := 0; i < n; i++ {
		switch rapid.IntRange(0, 7).Draw(t, label+".block") {
		case 0:
			out = append(out, wire.NewObject().Set("type", "reasoning").Set("text", String(t, label+".reasoning", o, 3)))
		case 1:
			out = append(out, wire.NewObject().Set("type", "tool-call").Set("id", "c1").Set("name", "read").Set("arguments", "{}"))
		case 2:
			// A long text, so budgets force truncation.
			out = append(out, textBlock(String(t, label+".long", o, 60)))
		default:
			out = append(out, textBlock(String(t, label+".text", o, 8)))
		}
	}
	return out
}

// Agent draws the target agent: an id from the pool (so self-references happen) and a cwd.
func Agent(t *rapid.T, label string, o Options) *wire.Object {
	a := wire.NewObject().Set("id", ID(t, label+".id", o))
	if rapid.IntRange(0, 3).Draw(t, label+".cwd?") > 0 {
		a.Set("cwd", rapid.SampledFrom(cwdPool).Draw(t, label+".cwd"))
	}
	return a
}

// Query draws a candidate query: a piece of an id, title or cwd in another case, or text.
func Query(t *rapid.T, label string, w *protocol.World, o Options) any {
	switch rapid.IntRange(0, 9).Draw(t, label+".kind") {
	case 0:
		return ""
	case 1:
		return rapid.SampledFrom([]any{nil, 5.0, true}).Draw(t, label+".wrongType")
	case 2, 3, 4, 5:
		if len(w.Sessions) > 0 {
			s := rapid.SampledFrom(w.Sessions).Draw(t, label+".session")
			src := s.Header.ID
			if s.Title != nil && rapid.Bool().Draw(t, label+".title") {
				src = *s.Title
			} else if s.Header.CWD != nil && rapid.Bool().Draw(t, label+".cwd") {
				src = *s.Header.CWD
			}
			u := []rune(src)
			if len(u) > 0 {
				i := rapid.IntRange(0, len(u)-1).Draw(t, label+".from")
				j := rapid.IntRange(i, len(u)).Draw(t, label+".to")
				q := string(u[i:j])
				if rapid.Bool().Draw(t, label+".upper") {
					q = upper(q)
				}
				return q
			}
		}
	}
	return String(t, label+".text", o, 2)
}

func upper(s string) string {
	out := []rune(s)
	for i, r := range out {
		switch {
		case r >= 'a' && r <= 'z':
			out[i] = r - 32
		case r == 'σ' || r == 'ς':
			out[i] = 'Σ'
		case r == 'i':
			out[i] = 'İ'
		}
	}
	return string(out)
}

// Limit draws a candidate limit, valid or not. Some integers are written as other JSON
// texts ("2.0", "1e1", "-0"): JSON.parse reads them as the same doubles, where a port's
// reader may see floats (spec/porting-traps.md, TRAP-TYPE-INTEGRAL-FLOAT).
func Limit(t *rapid.T, label string) any {
	return rapid.SampledFrom([]any{1.0, 2.0, 3.0, 50.0, 0.0, -1.0, 2.5, "3", nil, 1e300, float64(1 << 53), true,
		wire.Number("2.0"), wire.Number("1e1"), wire.Number("-0"), wire.Number("0.5e1")}).Draw(t, label)
}

// Config draws a configuration object whose keys may be absent, null, valid or invalid, some
// numbers written as other JSON texts for the same double ("2.0", "1E0", "-0.0").
func Config(t *rapid.T, label string) any {
	if rapid.IntRange(0, 12).Draw(t, label+".odd?") == 0 {
		return rapid.SampledFrom([]any{nil, "x", 3.0, []any{}}).Draw(t, label+".odd")
	}
	c := wire.NewObject()
	for _, k := range []string{"maxReferences", "candidateLimit", "maxReferenceBytes"} {
		switch rapid.IntRange(0, 7).Draw(t, label+"."+k) {
		case 7: // the key's own bounds: one past the maximum, the largest safe integer
			c.Set(k, rapid.SampledFrom(configBounds[k]).Draw(t, label+".bound"))
		case 0, 1, 2:
		case 3:
			c.Set(k, nil)
		case 4:
			c.Set(k, rapid.SampledFrom([]any{0.0, -1.0, 2.5, "3", true, 4.0, 1e300, float64(1<<53 - 1), float64(1 << 53),
				wire.Number("2.0"), wire.Number("1E0"), wire.Number("-0.0"), wire.Number("3.00")}).Draw(t, label+".bad"))
		default:
			c.Set(k, float64(rapid.IntRange(1, 3).Draw(t, label+".good")))
		}
	}
	return c
}

// configBounds are the values at each key's bounds (SR-CONF-*): maxReferences is at most 3;
// the others are positive safe integers.
var configBounds = map[string][]any{
	"maxReferences":     {3.0, 4.0, 1.0, 0.0, 3.5},
	"candidateLimit":    {1.0, 0.0, float64(1<<53 - 1), float64(1 << 53), 0.5},
	"maxReferenceBytes": {1.0, 0.0, float64(1<<53 - 1), float64(1 << 53), -1.0},
}

// BudgetConfig draws a configuration for prepare: mostly a small byte budget, so drops and
// truncation happen, near the fixed-field size as often as not.
func BudgetConfig(t *rapid.T, label string) any {
	c := wire.NewObject()
	if rapid.IntRange(0, 9).Draw(t, label+".bad?") == 0 {
		return Config(t, label)
	}
	c.Set("maxReferenceBytes", float64(rapid.IntRange(1, 1500).Draw(t, label+".bytes")))
	if rapid.Bool().Draw(t, label+".maxRefs?") {
		c.Set("maxReferences", float64(rapid.IntRange(1, 3).Draw(t, label+".maxRefs")))
	}
	return c
}

// Content draws message content: text blocks, passed through detached.
func Content(t *rapid.T, label string, o Options) any {
	n := rapid.IntRange(0, 2).Draw(t, label+".n")
	out := make([]any, n)
	for i := range out {
		out[i] = textBlock(String(t, label+".text", o, 3))
	}
	return out
}

// agentID is the agent's id, or "" when it is not a string.
func agentID(agent *wire.Object) string {
	id, _ := agent.Get("id")
	s, _ := id.(string)
	return s
}

// References draws the references argument: ids of the world's sessions, unknown ids, the
// agent itself, duplicates with other labels, and now and then values of the wrong type;
// a third of the time, one to three sessions the world can read.
func References(t *rapid.T, label string, w *protocol.World, agent *wire.Object, o Options) any {
	if rapid.IntRange(0, 15).Draw(t, label+".odd?") == 0 {
		return rapid.SampledFrom([]any{nil, "", "ab", 5.0, wire.NewObject()}).Draw(t, label+".odd")
	}
	// A third of the time, one to three sessions the world can read: a prepare that
	// succeeds, so that what a snapshot holds is checked as often as what fails.
	var readable []string
	for _, s := range w.Sessions {
		if s.Surface != nil && s.ReadError == nil && s.Header.ID != agentID(agent) {
			readable = append(readable, s.Header.ID)
		}
	}
	if len(readable) > 0 && rapid.IntRange(0, 2).Draw(t, label+".readable?") == 0 {
		n := rapid.IntRange(1, 3).Draw(t, label+".readableN")
		out := make([]any, n)
		for i := range out {
			ref := wire.NewObject().Set("sessionId", rapid.SampledFrom(readable).Draw(t, label+".readable"))
			if rapid.Bool().Draw(t, label+".labelled") {
				ref.Set("label", String(t, label+".label", o, 4))
			}
			out[i] = ref
		}
		return out
	}
	n := rapid.IntRange(0, 5).Draw(t, label+".n")
	out := make([]any, 0, n)
	for i := 0; i < n; i++ {
		var id any
		switch k := rapid.IntRange(0, 9).Draw(t, label+".which"); {
		case k < 6 && len(w.Sessions) > 0:
			id = rapid.SampledFrom(w.Sessions).Draw(t, label+".session").Header.ID
		case k == 6:
			id, _ = agent.Get("id")
		case k == 7:
			id = ID(t, label+".unknown", o)
		case k == 8 && rapid.IntRange(0, 3).Draw(t, label+".wrong?") == 0:
			out = append(out, rapid.SampledFrom([]any{nil, "s-1", 1.0, []any{"s-1"}, wire.NewObject().Set("sessionId", 1.0), wire.NewObject().Set("sessionId", "s-1").Set("label", nil)}).Draw(t, label+".wrong"))
			continue
		default:
			id = ID(t, label+".id", o)
		}
		ref := wire.NewObject().Set("sessionId", id)
		if rapid.Bool().Draw(t, label+".labelled") {
			ref.Set("label", String(t, label+".label", o, 4))
		}
		out = append(out, ref)
	}
	return out
}
