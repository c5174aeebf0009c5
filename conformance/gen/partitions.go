package gen

import (
	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// CandidatesDeep draws a candidates request aimed at the listing's partitions: duplicate ids
// in the listing (the seed then reads a missing settlement), ids and titles differing only in
// case or by a trap's case mapping, a limit just below, at and just above the number of
// matches, header fields absent or extra ones null, the agent with and without a cwd (equal to
// some sessions' or none), and cancellation before and during the listing.
func CandidatesDeep(t *rapid.T, o Options) protocol.Request {
	w := &protocol.World{}
	n := rapid.IntRange(0, 7).Draw(t, "deep.sessions")
	base := rapid.SampledFrom([]string{"alpha", "ΣΊΣΥΦΟΣ", "İstanbul", "Ꙋ", "straße", "\U0001e900x", "a😀b", "\U0001e922"}).Draw(t, "deep.base")
	agentCWD := rapid.SampledFrom([]string{"/repo", "/REPO", "/work/a"}).Draw(t, "deep.agentCwd")
	// A trap whose JavaScript lowercase differs from it, planted in titles and cwds and
	// queried in lowercase: a port whose case tables are older than the engine's, or that
	// maps code points one by one, does not match it.
	var caseTrap, caseTrapLower string
	if rapid.IntRange(0, 2).Draw(t, "deep.caseTrap?") == 0 {
		tr := rapid.SampledFrom(casedTraps()).Draw(t, "deep.caseTrap")
		caseTrap, caseTrapLower = tr.S, tr.Lower
	}
	for i := 0; i < n; i++ {
		var id string
		switch rapid.IntRange(0, 5).Draw(t, "deep.idKind") {
		case 0: // a duplicate of an earlier id
			if len(w.Sessions) > 0 {
				id = rapid.SampledFrom(w.Sessions).Draw(t, "deep.dup").Header.ID
				break
			}
			fallthrough
		case 1: // an earlier id in another case
			if len(w.Sessions) > 0 {
				id = upper(rapid.SampledFrom(w.Sessions).Draw(t, "deep.caseOf").Header.ID)
				break
			}
			fallthrough
		default:
			id = rapid.SampledFrom([]string{"s-1", "s-2", "s-3", "s-4", "s-5", "s-6", "s-7"}).Draw(t, "deep.id")
		}
		h := protocol.Header{ID: id, CreatedAt: Number(t, "deep.createdAt")}
		switch rapid.IntRange(0, 3).Draw(t, "deep.cwd") {
		case 0: // absent
		case 1:
			c := agentCWD
			h.CWD = &c
		case 2:
			c := upper(agentCWD)
			h.CWD = &c
		default:
			c := rapid.SampledFrom(cwdPool).Draw(t, "deep.otherCwd") + caseTrap
			h.CWD = &c
		}
		if rapid.IntRange(0, 3).Draw(t, "deep.extra?") == 0 {
			h.Extra = wire.NewObject().Set("version", 1.0).Set("parentSession", nil).Set("title", nil)
		}
		s := protocol.Session{Header: h}
		switch rapid.IntRange(0, 5).Draw(t, "deep.title") {
		case 0:
		case 1:
			e := "title read failed"
			s.TitleError = &e
		case 2:
			empty := ""
			s.Title = &empty
		case 3: // the base title in another case: a case-only difference between sessions
			title := upper(base)
			s.Title = &title
		default:
			title := base + caseTrap
			if rapid.Bool().Draw(t, "deep.titleTrap?") {
				title += trapString(rapid.IntRange(0, len(Traps())-1).Draw(t, "deep.titleTrap"), o)
			}
			s.Title = &title
		}
		w.Sessions = append(w.Sessions, s)
	}
	if rapid.IntRange(0, 19).Draw(t, "deep.listError?") == 19 { // the largest value: shrinking drops the failure
		e := "listing failed"
		w.ListError = &e
	}
	agent := wire.NewObject().Set("id", rapid.SampledFrom([]string{"agent", "s-1", "S-1"}).Draw(t, "deep.agent"))
	if rapid.Bool().Draw(t, "deep.agentCwd?") {
		agent.Set("cwd", agentCWD)
	}
	args := wire.NewObject().Set("world", w.Value()).Set("agent", agent)
	switch rapid.IntRange(0, 6).Draw(t, "deep.query") {
	case 6:
		if caseTrap != "" {
			args.Set("query", caseTrapLower)
			break
		}
		args.Set("query", Query(t, "deep.query", w, o))
	case 0: // no query
	case 1:
		args.Set("query", "")
	case 2:
		args.Set("query", rapid.SampledFrom([]string{"s-", "S-", "σίσυφος", "i̇stanbul", "istanbul", "STRASSE", "ᲈ", "ⴈ", "REPO", "/repo", "\U0001e922"}).Draw(t, "deep.q"))
	case 3:
		if o.LoneSurrogates {
			// Half of an astral character some session's id, title or cwd holds: a
			// code-unit substring that a byte (or code point) search does not find.
			var astral []rune
			for _, ws := range w.Sessions {
				fields := []*string{&ws.Header.ID, ws.Title, ws.Header.CWD}
				for _, f := range fields {
					if f == nil {
						continue
					}
					for _, r := range *f {
						if r > 0xFFFF {
							astral = append(astral, r)
						}
					}
				}
			}
			if len(astral) == 0 {
				astral = []rune{'😀'}
			}
			r := rapid.SampledFrom(astral).Draw(t, "deep.astral")
			u := wire.UTF16(string(r))
			var b wire.Builder
			b.WriteUnit(u[rapid.IntRange(0, 1).Draw(t, "deep.half")])
			args.Set("query", b.String())
			break
		}
		fallthrough
	default:
		args.Set("query", Query(t, "deep.query", w, o))
	}
	if rapid.IntRange(0, 2).Draw(t, "deep.limit?") > 0 {
		// Around the listing's length: one below, equal, one above.
		l := float64(max(1, n+rapid.IntRange(-3, 1).Draw(t, "deep.limitDelta")))
		if rapid.IntRange(0, 9).Draw(t, "deep.badLimit?") == 0 {
			args.Set("limit", Limit(t, "deep.badLimit"))
		} else {
			args.Set("limit", l)
		}
	}
	setCancel(t, args)
	return protocol.Request{Op: protocol.OpCandidates, Args: must(args).(*wire.Object)}
}

// Prepare conditions: each is an error (or a non-error branch) PreparePrecedence can plant in
// a request. With two planted, the answer shows which one the port checks first.
const (
	condConfig    = "config"      // an invalid configuration
	condInvalid   = "invalid"     // an element that is not a valid reference
	condSelf      = "self"        // a reference to the agent
	condTooMany   = "too-many"    // more distinct sources than maxReferences
	condCancel    = "cancel"      // cancellation before the reads
	condCancelRd  = "cancel-read" // cancellation during the reads
	condReadFail  = "read-fail"   // a source whose read fails (or that does not exist)
	condBudget    = "budget"      // a source that cannot fit the budget
	condDupLabel  = "dup-label"   // a duplicate reference with another label
	condDupBad    = "dup-invalid" // a duplicate whose label is not a string
	condEmptyRefs = "no-refs"     // no references at all
)

var prepareConds = []string{condConfig, condInvalid, condSelf, condTooMany, condCancel, condCancelRd, condReadFail, condBudget, condDupLabel, condDupBad, condEmptyRefs}

// PreparePrecedence draws a prepare request with one or two planted conditions (invalid
// config, invalid element, self-reference, too many sources, cancellation before or during
// the reads, a failing read, a source over budget, duplicates with another or an invalid
// label, no references), in a drawn order, on top of a valid request: every pair of errors
// the seed checks in sequence, so a port checking them in another order answers otherwise.
func PreparePrecedence(t *rapid.T, o Options) protocol.Request {
	conds := map[string]bool{}
	if rapid.IntRange(0, 3).Draw(t, "pair?") > 0 {
		// Two distinct errors: a precedence pair.
		errs := prepareConds[:8]
		i := rapid.IntRange(0, len(errs)-1).Draw(t, "first")
		j := (i + rapid.IntRange(1, len(errs)-1).Draw(t, "second")) % len(errs)
		conds[errs[i]], conds[errs[j]] = true, true
	} else {
		for i, k := 0, rapid.IntRange(1, 2).Draw(t, "conds"); i < k; i++ {
			conds[rapid.SampledFrom(prepareConds).Draw(t, "cond")] = true
		}
	}
	w := &protocol.World{}
	readable := func(id string, big bool) {
		events := []any{userMessage(1, []any{textBlock("hello " + id)}, wire.NewObject().Set("kind", "user"))}
		if big {
			events = append(events, userMessage(2, []any{textBlock(plainText(t, 400, o))}, wire.NewObject().Set("kind", "user")))
		}
		seq := 1.0
		w.Sessions = append(w.Sessions, protocol.Session{
			Header:  protocol.Header{ID: id, CreatedAt: 1},
			Surface: &protocol.Surface{Events: events, CapturedThroughSeq: &seq},
		})
	}
	ref := func(id string) *wire.Object { return wire.NewObject().Set("sessionId", id) }
	var refs []any
	if !conds[condEmptyRefs] {
		for i, n := 0, rapid.IntRange(1, 3).Draw(t, "validRefs"); i < n; i++ {
			refs = append(refs, ref([]string{"s-1", "s-2", "s-3"}[i]))
		}
	}
	// Each planted element goes at a drawn position, so an invalid element may come before
	// or after a self-reference.
	insert := func(e any) {
		i := rapid.IntRange(0, len(refs)).Draw(t, "at")
		refs = append(refs[:i], append([]any{e}, refs[i:]...)...)
	}
	config := wire.NewObject()
	if conds[condInvalid] {
		insert(rapid.SampledFrom([]any{nil, "s-1", 1.0, []any{}, wire.NewObject(), ref("s-1").Set("label", 2.0), wire.NewObject().Set("sessionId", nil)}).Draw(t, "invalidElem"))
	}
	if conds[condSelf] {
		insert(ref("agent"))
	}
	if conds[condTooMany] {
		// Four distinct sources, more than any valid maxReferences.
		refs = append(refs, ref("s-1"), ref("s-2"), ref("s-3"), ref("s-4"))
		if rapid.Bool().Draw(t, "maxRefs?") {
			config.Set("maxReferences", float64(rapid.IntRange(1, 3).Draw(t, "maxRefs")))
		}
	}
	if conds[condReadFail] {
		id := "s-fail"
		if rapid.Bool().Draw(t, "failMissing") {
			id = "s-missing"
		} else {
			e := "surface read failed"
			w.Sessions = append(w.Sessions, protocol.Session{Header: protocol.Header{ID: id, CreatedAt: 2}, ReadError: &e})
		}
		insert(ref(id))
	}
	if conds[condBudget] {
		readable("s-big", true)
		// Room for the small sources, not for the big one's fixed fields: its label alone
		// is longer than the budget.
		insert(ref("s-big").Set("label", plainText(t, 320, o)))
		config.Set("maxReferenceBytes", float64(rapid.IntRange(140, 300).Draw(t, "budgetBytes")))
	}
	if conds[condDupLabel] && len(refs) > 0 {
		if first, ok := refs[0].(*wire.Object); ok {
			id, _ := first.Get("sessionId")
			insert(wire.NewObject().Set("sessionId", id).Set("label", String(t, "dupLabel", o, 2)))
		}
	}
	if conds[condDupBad] {
		insert(ref("s-1").Set("label", rapid.SampledFrom([]any{nil, 1.0, false}).Draw(t, "dupBadLabel")))
		if rapid.Bool().Draw(t, "dupBadAfter") {
			refs = append([]any{ref("s-1")}, refs...)
		}
	}
	if conds[condConfig] {
		config.Set(rapid.SampledFrom([]string{"maxReferences", "candidateLimit", "maxReferenceBytes"}).Draw(t, "badKey"),
			rapid.SampledFrom([]any{0.0, -1.0, 2.5, "3", 4.0, true}).Draw(t, "badValue"))
	}
	// The small sources exist when referenced, so a shrunk request holds only those.
	for _, id := range []string{"s-1", "s-2", "s-3", "s-4"} {
		for _, e := range refs {
			if r, ok := e.(*wire.Object); ok {
				if v, _ := r.Get("sessionId"); v == id {
					readable(id, false)
					break
				}
			}
		}
	}
	args := wire.NewObject().Set("world", w.Value()).Set("agent", wire.NewObject().Set("id", "agent")).
		Set("content", Content(t, "content", o)).Set("references", refs)
	if len(config.Keys()) > 0 {
		args.Set("config", config)
	}
	switch {
	case conds[condCancel]:
		args.Set("cancel", protocol.CancelBefore)
	case conds[condCancelRd]:
		args.Set("cancel", protocol.CancelDuringRead)
	}
	return protocol.Request{Op: protocol.OpPrepare, Args: must(args).(*wire.Object)}
}
