package mutants

import (
	"context"
	"math"
	"regexp"
	"strconv"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// phpMutants are the mistakes a PHP 8.2 port written from the spec alone would make by a PHP
// default, that passed every fixed check before the cases of gen_php_test.go. Each is a
// protocol-level handler over the reference that answers as the PHP port does.
func phpMutants() []mutant {
	return []mutant{
		{name: "php/loose-id-equality", mistake: "ids compared with PHP's == and != for the self exclusion and the self reference: numeric strings compare as numbers (\"10\" == \"1e1\")", handler: &phpLooseIDs{}},
		{name: "php/query-zero-empty", mistake: "the query tested with empty($needle): the query \"0\" lists as the empty query does", handler: &phpQueryZero{}},
		knob("php/stripslashes-label", "Markdown labels unescaped with PHP's stripslashes(), which turns the escape \\0 into NUL (addslashes' inverse), not 0", knobs{stripslashes: true}),
		{name: "php/falsy-text-skipped", mistake: "a projected message kept when if ($text): a message whose text is \"0\" is skipped as empty", handler: &phpEvents{rewrite: phpZeroTextEmptied}},
		{name: "php/falsy-source-fails", mistake: "a user/message without a source found with if (!$source): a source \"\", \"0\", 0, false or [] fails the preparation (no code) instead of being skipped", handler: &phpEvents{rewrite: phpFalsySourceNulled}},
		{name: "php/loose-true-equals", mistake: "a block's type and a source's kind compared with ==: true == \"text\" and true == \"user\", so a block of type true is text and a source of kind true is the user's", handler: &phpEvents{rewrite: phpTrueAsString}},
		{name: "php/assoc-content-copy", mistake: "the content deep-copied with json_decode(json_encode($content), true): {} comes back [], and an object keyed 0..n-1 comes back an array", handler: &phpAssocCopy{}},
		{name: "php/infinity-as-zero", mistake: "numbers written with json_encode(..., JSON_PARTIAL_OUTPUT_ON_ERROR): a number that reads as ±Infinity (1e400) is written 0, not null (in the content and the snapshot's capturedThroughSeq)", handler: &phpInfinityAsZero{}},
	}
}

// mapLeaf returns a copy of v with every value that is neither an array nor an object
// replaced by f(value).
func mapLeaf(v any, f func(any) any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = mapLeaf(e, f)
		}
		return out
	case *wire.Object:
		if x == nil {
			return x
		}
		out := wire.NewObject()
		if x.KeepsOrder() {
			out.KeepOrder()
		}
		for _, k := range x.Keys() {
			e, _ := x.Get(k)
			out.Set(k, mapLeaf(e, f))
		}
		return out
	}
	return f(v)
}

// phpInfinityAsZero writes JSON as a PHP port whose json_encode failed on INF ("Inf and NaN
// cannot be JSON encoded") and was given JSON_PARTIAL_OUTPUT_ON_ERROR, which writes 0 in
// their place (gen_php_test.go, TRAP-JSON-NUMBERS): JSON.stringify writes null. Every
// ±Infinity of the request reads as 0; where the seed only validates a number (a configured
// value, a limit), 0 fails with the same code as Infinity.
type phpInfinityAsZero struct{ refadapter.Reference }

func (h *phpInfinityAsZero) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	args := mapLeaf(req.Args, func(v any) any {
		if f, ok := plainNumber(v); ok && math.IsInf(f, 0) {
			return float64(0) // MUTANT
		}
		return v
	}).(*wire.Object)
	return h.Reference.Handle(ctx, protocol.Request{ID: req.ID, Op: req.Op, Args: args})
}

// phpNumeric matches a PHP 8 numeric string: optional leading and trailing whitespace around
// an integer or float literal.
var phpNumeric = regexp.MustCompile(`^[ \t\n\r\v\f]*[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?[ \t\n\r\v\f]*$`)

// phpLooseEqual is PHP 8's == on two strings: numbers when both are numeric strings, else
// byte equality.
func phpLooseEqual(a, b string) bool {
	if a == b {
		return true
	}
	if !phpNumeric.MatchString(a) || !phpNumeric.MatchString(b) {
		return false
	}
	x, errA := strconv.ParseFloat(trimPHPSpace(a), 64)
	y, errB := strconv.ParseFloat(trimPHPSpace(b), 64)
	return errA == nil && errB == nil && x == y
}

func trimPHPSpace(s string) string {
	const ws = " \t\n\r\v\f"
	for len(s) > 0 && containsByte(ws, s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && containsByte(ws, s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// phpLooseIDs excludes the agent's own session with $id != $agent['id'] and finds a self
// reference with $sid == $agent['id'] (gen_php_test.go, TRAP-STR-EQUALITY): a listed session
// whose id is numerically equal to the agent's is dropped, and such a reference is a self
// reference. It rewrites the request so the reference sees what the PHP port compares.
type phpLooseIDs struct{ refadapter.Reference }

func (h *phpLooseIDs) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	ag, _ := req.Args.Get("agent")
	agObj, _ := ag.(*wire.Object)
	idv, _ := agObj.Get("id")
	me, ok := idv.(string)
	if !ok {
		return h.Reference.Handle(ctx, req)
	}
	args := wire.Clone(req.Args).(*wire.Object)
	switch req.Op {
	case protocol.OpCandidates:
		w, _ := args.Get("world")
		wo, ok := w.(*wire.Object)
		if !ok {
			break
		}
		ss, _ := wo.Get("sessions")
		list, _ := ss.([]any)
		kept := []any{}
		for _, e := range list {
			if id, ok := sessionID(e); ok && id != me && phpLooseEqual(id, me) {
				continue // MUTANT: $r['header']->id != $agent['id'] is false
			}
			kept = append(kept, e)
		}
		if list != nil {
			wo.Set("sessions", kept)
		}
	case protocol.OpPrepare:
		rs, _ := args.Get("references")
		list, _ := rs.([]any)
		for _, e := range list {
			r, ok := e.(*wire.Object)
			if !ok {
				break
			}
			sid, _ := r.Get("sessionId")
			s, ok := sid.(string)
			if l, has := r.Get("label"); !ok || (has && !isString(l)) {
				break // this reference fails first, as the reference says
			}
			if s != me && phpLooseEqual(s, me) {
				r.Set("sessionId", me) // MUTANT: $sid == $agent['id']
				break
			}
		}
	}
	return h.Reference.Handle(ctx, protocol.Request{ID: req.ID, Op: req.Op, Args: args})
}

// sessionID is the header id of a world session, when it is a string.
func sessionID(e any) (string, bool) {
	s, ok := e.(*wire.Object)
	if !ok {
		return "", false
	}
	hd, _ := s.Get("header")
	ho, ok := hd.(*wire.Object)
	if !ok {
		return "", false
	}
	id, _ := ho.Get("id")
	str, ok := id.(string)
	return str, ok
}

// phpQueryZero lists candidates as a PHP port that tests the needle with empty($needle)
// (or !$needle) does (gen_php_test.go, TRAP-TYPE-FALSY-STRING): "0" is falsy in PHP, so the
// query "0" is the empty query, ranked and limited without a filter.
type phpQueryZero struct{ refadapter.Reference }

func (h *phpQueryZero) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	if q, ok := req.Args.Get("query"); ok && q == "0" && req.Op == protocol.OpCandidates {
		args := wire.Clone(req.Args).(*wire.Object)
		args.Set("query", "") // MUTANT
		return h.Reference.Handle(ctx, protocol.Request{ID: req.ID, Op: req.Op, Args: args})
	}
	return h.Reference.Handle(ctx, req)
}

// stripslashes is PHP's stripslashes over a label's code units: a backslash is dropped and the
// unit after it kept, except that a backslash before "0" makes NUL, as addslashes' inverse
// (gen_php_test.go, TRAP-RE-UNESCAPE). A matched label has no lone trailing backslash.
func stripslashes(raw []uint16) []uint16 {
	out := make([]uint16, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		if raw[i] == '\\' && i+1 < len(raw) {
			i++
			if raw[i] == '0' {
				out = append(out, 0)
				continue
			}
		}
		out = append(out, raw[i])
	}
	return out
}

// phpEvents rewrites every surface event of the worlds it is given (a request's own or a
// world.define'd one) as a PHP port reads it, then answers as the reference.
type phpEvents struct {
	refadapter.Reference
	rewrite func(e *wire.Object) any
}

func (h *phpEvents) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	switch req.Op {
	case protocol.OpPrepare, protocol.OpHostSend, protocol.OpWorldDefine:
		if w, ok := req.Args.Get("world"); ok {
			if wo, isObj := w.(*wire.Object); isObj && wo != nil && wo.Has("sessions") {
				req = withArg(req, "world", mapEvents(wo, h.rewrite))
			}
		}
	}
	return h.Reference.Handle(ctx, req)
}

// mapEvents is a copy of world whose surface events that are objects are f(event).
func mapEvents(world *wire.Object, f func(*wire.Object) any) *wire.Object {
	sessions, _ := world.Get("sessions")
	list, ok := sessions.([]any)
	if !ok {
		return world
	}
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
		so, isObj := s.(*wire.Object)
		if !isObj || so == nil {
			continue
		}
		surf, _ := so.Get("surface")
		sf, isObj := surf.(*wire.Object)
		if !isObj || sf == nil {
			continue
		}
		evs, _ := sf.Get("events")
		el, isList := evs.([]any)
		if !isList {
			continue
		}
		nel := make([]any, len(el))
		for j, e := range el {
			nel[j] = e
			if eo, isObj := e.(*wire.Object); isObj && eo != nil {
				nel[j] = f(eo)
			}
		}
		out[i] = copyWith(so, "surface", copyWith(sf, "events", nel))
	}
	return copyWith(world, "sessions", out)
}

// phpZeroTextEmptied empties the content of a message whose text is "0", which a port that
// keeps a message when if ($text) skips (gen_php_test.go, TRAP-TYPE-FALSY-STRING).
func phpZeroTextEmptied(e *wire.Object) any {
	emptied := emptiedWhen(e, func(text string) bool { return text == "0" })
	return emptied
}

// phpFalsySourceNulled makes null the source of a user/message that PHP finds falsy ("",
// "0", 0, false, an empty array), so the reference fails on it as the PHP port's
// if (!$source) does (gen_php_test.go, TRAP-TYPE-FALSY-STRING).
func phpFalsySourceNulled(e *wire.Object) any {
	if typ, _ := e.Get("type"); typ != "user/message" {
		return e
	}
	data, _ := e.Get("data")
	do, isObj := data.(*wire.Object)
	if !isObj || do == nil {
		return e
	}
	src, _ := do.Get("source")
	falsy := src == "" || src == "0" || src == false
	if f, ok := plainNumber(src); ok && f == 0 {
		falsy = true
	}
	if l, ok := src.([]any); ok && len(l) == 0 {
		falsy = true
	}
	if !falsy {
		return e
	}
	return copyWith(e, "data", copyWith(do, "source", nil)) // MUTANT: if (!$source) throws
}

// phpTrueAsString makes "text" the type true of a content block, and "user" the kind true of
// a user/message's source (when it is no checkpoint, which === decides), as PHP's == reads
// them (gen_php_test.go, TRAP-STR-EQUALITY).
func phpTrueAsString(e *wire.Object) any {
	holder, ok := messageHolder(e)
	if !ok {
		return e
	}
	if content, _ := holder.Get("content"); content != nil {
		if blocks, isList := content.([]any); isList {
			nb := make([]any, len(blocks))
			for i, b := range blocks {
				nb[i] = b
				if bo, isObj := b.(*wire.Object); isObj && bo != nil {
					if t, _ := bo.Get("type"); t == true {
						nb[i] = copyWith(bo, "type", "text") // MUTANT: true == "text"
					}
				}
			}
			holder = copyWith(holder, "content", nb)
		}
	}
	if typ, _ := e.Get("type"); typ == "user/message" {
		if src, _ := holder.Get("source"); src != nil {
			if so, isObj := src.(*wire.Object); isObj && so != nil {
				if k, _ := so.Get("kind"); k == true {
					holder = copyWith(holder, "source", copyWith(so, "kind", "user")) // MUTANT: true == "user"
				}
			}
		}
	}
	return withHolder(e, holder)
}

// phpAssocCopy copies prepare's content as json_decode(json_encode($content), true) does
// (gen_php_test.go, TRAP-JSON-OBJECT-AS-ARRAY): an object becomes a PHP array, which
// json_encode writes as a JSON array when it is empty or its keys are 0..n-1 in order.
type phpAssocCopy struct{ refadapter.Reference }

func (h *phpAssocCopy) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	if req.Op == protocol.OpPrepare {
		if c, ok := req.Args.Get("content"); ok {
			req = withArg(req, "content", assocCopy(c))
		}
	}
	return h.Reference.Handle(ctx, req)
}

func assocCopy(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = assocCopy(e)
		}
		return out
	case *wire.Object:
		if x == nil {
			return x
		}
		keys := x.Keys()
		list := true
		for i, k := range keys {
			if k != strconv.Itoa(i) {
				list = false
			}
		}
		if list {
			out := make([]any, len(keys)) // MUTANT: {} and {"0": …} come back arrays
			for i, k := range keys {
				e, _ := x.Get(k)
				out[i] = assocCopy(e)
			}
			return out
		}
		out := wire.NewObject()
		for _, k := range keys {
			e, _ := x.Get(k)
			out.Set(k, assocCopy(e))
		}
		return out
	}
	return v
}
