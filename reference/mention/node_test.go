package mention_test

// Differential test: Parse against the seed's own parseSessionReferenceText and
// decodeSessionReferenceUri (copied verbatim from lib/index.js, collaborators inlined) run by
// the node on PATH. Skips when node is missing.

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/internal/nodejs"
	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/mention"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

const seedScript = `
class SessionReferenceError extends Error {
  constructor(message, code, options) { super(message, options); this.code = code; }
}
const SessionId = (x) => x;
function encodeSessionReferenceUri(sessionId) {
	return ` + "`dsh-session:${Buffer.from(JSON.stringify(sessionId), \"utf8\").toString(\"base64url\")}`" + `;
}
function decodeSessionReferenceUri(uri) {
	if (!uri.startsWith("dsh-session:")) throw invalidUri(uri);
	const payload = uri.slice(12);
	if (!/^[A-Za-z0-9_-]+$/.test(payload)) throw invalidUri(uri);
	try {
		const parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
		if (typeof parsed !== "string") throw new TypeError("decoded session id is not a string");
		const sessionId = SessionId(parsed);
		if (encodeSessionReferenceUri(sessionId) !== uri) throw new TypeError("URI is not canonical");
		return sessionId;
	} catch (error) {
		throw invalidUri(uri, error);
	}
}
function parseSessionReferenceText(text) {
	const references = [];
	return {
		text: text.replace(/@\[((?:\\.|[^\\\]])*)\]\((dsh-session:[^\s)]*)\)|(dsh-session:[A-Za-z0-9_-]+)/gu, (_match, rawLabel, markdownUri, bareUri) => {
			const uri = markdownUri ?? bareUri;
			const sessionId = decodeSessionReferenceUri(uri);
			const label = rawLabel === void 0 ? sessionId : unescapeLabel(rawLabel);
			references.push({ sessionId, label });
			return ` + "`@${label}`" + `;
		}),
		references
	};
}
function unescapeLabel(label) { return label.replace(/\\(.)/gu, "$1"); }
function invalidUri(uri, cause) {
	return new SessionReferenceError("invalid session reference URI " + JSON.stringify(uri), "SESSION_REFERENCE_INVALID_REFERENCE", cause === void 0 ? void 0 : { cause });
}
function handle(req) {
  return req.texts.map((u) => {
    try {
      const r = parseSessionReferenceText(str(u));
      return { text: units(r.text), refs: r.references.map((x) => [units(x.sessionId), units(x.label)]) };
    } catch (e) {
      return { code: e.code ?? null, message: e.message };
    }
  });
}
`

type nodeParsed struct {
	Text    []uint16      `json:"text"`
	Refs    [][2][]uint16 `json:"refs"`
	Code    *string       `json:"code"`
	Message string        `json:"message"`
}

// genMentionText draws texts built from mention fragments: valid and broken URIs, labels with
// escapes, whitespace of every kind and surrogate halves.
var genMentionText = rapid.Custom(func(t *rapid.T) string {
	frags := []string{
		"@[", "](", ")", "]", "[", "@", `\`, `\]`, `\\`, "\n", "\r", "\u2028", "\u2029", "\u00a0", "\uFEFF", "\u0085", " ", "\t",
		"a", "x", "-", "_", "=", ".", "!", "é", "😀", hiD83D, loDE00, hiD800,
		"dsh-session:", "dsh-session:ImEi", "dsh-session:ImIi", "dsh-session:IiI", "dsh-session:ImEj", "dsh-session:IiI=",
		uri.Encode("<\"\\"), uri.Encode(hiD83D), uri.Encode("😀"), uri.EncodeJSON([]byte("1")),
		"@[a](dsh-session:ImEi)", "@[](dsh-session:IiI)",
	}
	parts := rapid.SliceOfN(rapid.SampledFrom(frags), 0, 14).Draw(t, "parts")
	return strings.Join(parts, "")
})

func TestParseAgainstSeed(t *testing.T) {
	p := nodejs.StartTB(t, seedScript)
	var texts []string
	rapid.Check(t, func(t *rapid.T) {
		texts = append(texts, rapid.SliceOfN(genMentionText, 30, 30).Draw(t, "texts")...)
	})
	// Hand-picked cases too.
	texts = append(texts, "@[x"+hiD83D+"](dsh-session:ImEi)"+loDE00, "@[a\\\nb](dsh-session:ImEi)", "")
	units := make([][]uint16, len(texts))
	for i, s := range texts {
		units[i] = js.UTF16(s)
		if units[i] == nil {
			units[i] = []uint16{}
		}
	}
	var replies []nodeParsed
	p.MustCall(t, map[string]any{"texts": units}, &replies)
	if len(replies) != len(texts) {
		t.Fatalf("%d replies for %d texts", len(replies), len(texts))
	}
	errorsSeen, refsSeen := 0, 0
	for i, s := range texts {
		want := replies[i]
		got, err := mention.Parse(s)
		if want.Code != nil || want.Message != "" {
			errorsSeen++
			if want.Code == nil || errcode.Of(err) != errcode.Code(*want.Code) {
				t.Errorf("Parse(%+q): got %+v, %v; seed threw %v %q", s, got, err, want.Code, want.Message)
			} else if err.Error() != want.Message {
				t.Errorf("Parse(%+q): message %q; seed %q", s, err.Error(), want.Message)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%+q) = %v; seed succeeded", s, err)
			continue
		}
		refsSeen += len(want.Refs)
		if w := js.FromUTF16(want.Text); got.Text != w {
			t.Errorf("Parse(%+q).Text = %+q; seed %+q", s, got.Text, w)
		}
		if len(got.References) != len(want.Refs) {
			t.Errorf("Parse(%+q): %d references; seed %d", s, len(got.References), len(want.Refs))
			continue
		}
		for k, r := range want.Refs {
			w := mention.Reference{SessionID: js.FromUTF16(r[0]), Label: js.FromUTF16(r[1])}
			if got.References[k] != w {
				t.Errorf("Parse(%+q).References[%d] = %+q; seed %+q", s, k, got.References[k], w)
			}
		}
	}
	if errorsSeen == 0 || refsSeen == 0 {
		t.Errorf("generator too weak: %d errors, %d references over %d texts", errorsSeen, refsSeen, len(texts))
	}
	t.Logf("%d texts, %d seed errors, %d references", len(texts), errorsSeen, refsSeen)
}
