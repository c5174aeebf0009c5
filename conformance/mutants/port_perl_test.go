package mutants

import (
	"context"
	"slices"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

// perlMutants are the mistakes a Perl 5 port written from the spec alone would make by a
// Perl default, that passed every fixed check before the cases named in their comments. Each
// is a protocol-level handler over the reference that answers as the Perl port does.
func perlMutants() []mutant {
	return []mutant{
		{name: "perl/falsy-zero-text", mistake: "projection keeps a message `if $text` (Perl's truth test): a message whose text is \"0\" is skipped as empty", handler: &perlFalsyText{}},
		{name: "perl/json-pp-lone-surrogate", mistake: "the URI payload parsed with JSON::PP, which dies on a lone surrogate's escape (\"\\ud800\"): without the lone-surrogates feature, uri.decode and mention.parse answer such a URI ADAPTER_UNSUPPORTED, and host.send fails with SESSION_REFERENCE_INVALID_REFERENCE", handler: &perlJSONPPSurrogate{}},
		knob("perl/strict-utf8-decode-uri", "the URI payload decoded with Encode::decode('UTF-8', …), which makes every noncharacter (U+FFFF, U+FDD0, U+10FFFF …) U+FFFD: an id holding one never decodes", knobs{strictNoncharURI: true}),
		knob("perl/strict-utf8-decode-retain", "the kept head and tail of a truncation decoded with Encode::decode('UTF-8', …): their noncharacters come back as U+FFFD", knobs{strictNoncharRetain: true}),
		{name: "perl/chomp-text", mistake: "the text to parse read with `chomp`: one trailing \"\\n\" is dropped from the parsed text and from the message a host delivers", handler: &perlChomp{}},
		{name: "perl/falsy-zero-query", mistake: "the candidate filter runs `if ($needle)` (Perl's truth test): the query \"0\" is taken for no query", handler: &perlFalsyQuery{}},
	}
}

// perlFalsyText is a Perl port whose projection appends a message with
// `push @msgs, {...} if $text` instead of `if $text ne ”` (gen_perl_test.go,
// TRAP-TYPE-FALSY-STRING): "0" is false in Perl, so a user, assistant or checkpoint message
// whose text is exactly "0" is not projected. It empties such messages' content in every
// world it is given, so the reference skips them.
type perlFalsyText struct{ refadapter.Reference }

func (h *perlFalsyText) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	switch req.Op {
	case protocol.OpPrepare, protocol.OpHostSend, protocol.OpWorldDefine:
		if w, ok := req.Args.Get("world"); ok {
			if wo, isObj := w.(*wire.Object); isObj && wo != nil && wo.Has("sessions") {
				req = withArg(req, "world", withoutMessages(wo, func(text string) bool { return text == "0" })) // MUTANT
			}
		}
	}
	return h.Reference.Handle(ctx, req)
}

// perlFalsyQuery is a Perl port whose candidate listing tests the lowercased query with
// `if ($needle)` where the seed tests `needle !== ""` (gen_perl_test.go,
// TRAP-TYPE-FALSY-STRING): the query "0" (its own lowercase) is false, so every session is
// ranked, limited and listed as for the empty query.
type perlFalsyQuery struct{ refadapter.Reference }

func (h *perlFalsyQuery) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	if req.Op == protocol.OpCandidates {
		if q, ok := req.Args.Get("query"); ok && q == "0" {
			req = withArg(req, "query", "") // MUTANT
		}
	}
	return h.Reference.Handle(ctx, req)
}

// perlJSONPPSurrogate is a Perl port that decodes a URI's payload with
// JSON::PP->new->allow_nonref->decode (gen_perl_test.go, TRAP-JSON-LONE-SURROGATES): JSON::PP
// dies on an escaped lone surrogate, so a URI whose id is one fails to decode. It declares no
// lone-surrogates feature and, as the catalogue's Ruby row advises such a port, answers
// uri.decode and mention.parse ADAPTER_UNSUPPORTED where the seed's answer would hold a lone
// surrogate; but host.send, whose answer is a code alone, fails with
// SESSION_REFERENCE_INVALID_REFERENCE where the seed reads the source.
type perlJSONPPSurrogate struct{ refadapter.Reference }

func (h *perlJSONPPSurrogate) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	const died = "missing low surrogate character in surrogate pair"
	invalid := protocol.Response{ID: req.ID, Err: &protocol.Error{Code: "SESSION_REFERENCE_INVALID_REFERENCE", Message: died}} // MUTANT
	unsupported := protocol.Response{ID: req.ID, Err: &protocol.Error{Code: protocol.CodeUnsupported, Message: died}}
	switch req.Op {
	case protocol.OpHello:
		resp := h.Reference.Handle(ctx, req)
		if o, ok := resp.Result.(*wire.Object); ok && resp.OK {
			out := wire.NewObject()
			for _, k := range o.Keys() {
				v, _ := o.Get(k)
				if fs, isList := v.([]any); isList && k == "features" {
					v = slices.DeleteFunc(slices.Clone(fs), func(f any) bool { return f == protocol.FeatureLoneSurrogates })
				}
				out.Set(k, v)
			}
			resp.Result = out
		}
		return resp
	case protocol.OpURIDecode:
		resp := h.Reference.Handle(ctx, req)
		if resp.OK && isLoneString(resp.Result) {
			return unsupported
		}
		return resp
	case protocol.OpMentionParse, protocol.OpHostSend:
		text, _ := req.Args.Get("text")
		parsed := h.Reference.Handle(ctx, protocol.Request{ID: req.ID, Op: protocol.OpMentionParse, Args: wire.NewObject().Set("text", text)})
		if o, ok := parsed.Result.(*wire.Object); ok && parsed.OK {
			rs, _ := o.Get("references")
			list, _ := rs.([]any)
			for _, r := range list {
				if ro, isObj := r.(*wire.Object); isObj {
					if v, _ := ro.Get("sessionId"); isLoneString(v) {
						if req.Op == protocol.OpHostSend {
							return invalid
						}
						return unsupported
					}
				}
			}
		}
	}
	return h.Reference.Handle(ctx, req)
}

// isLoneString reports whether v is a string holding a lone surrogate.
func isLoneString(v any) bool {
	s, ok := v.(string)
	return ok && !jsstring.WellFormed(s)
}

// perlChomp is a Perl port that runs `chomp $text` before it parses mentions
// (gen_perl_test.go, TRAP-STR-TRIM): one trailing "\n" is dropped, in mention.parse and in
// the text host.send parses and delivers.
type perlChomp struct{ refadapter.Reference }

func (h *perlChomp) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	if req.Op == protocol.OpMentionParse || req.Op == protocol.OpHostSend {
		if t, ok := req.Args.Get("text"); ok {
			if s, isString := t.(string); isString && strings.HasSuffix(s, "\n") {
				req = withArg(req, "text", strings.TrimSuffix(s, "\n")) // MUTANT: chomp
			}
		}
	}
	return h.Reference.Handle(ctx, req)
}
