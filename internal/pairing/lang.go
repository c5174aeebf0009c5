package pairing

import (
	"regexp"
	"slices"
	"strings"
)

// The file names the tool knows. A record sits beside the README it pairs.
const (
	// RecordName is the name of a pairing record.
	RecordName = "README.i18n.yaml"
	// BaseName is the README that translations sit beside.
	BaseName = "README.md"
)

// translationName matches README.<lang>.md where <lang> is a BCP 47-style tag: a
// two-letter language, then optional script (4 letters), region (2 letters or 3
// digits) subtags joined by "-" or "_": zh, zh-CN, zh_Hans, pt-BR, es-419.
var translationName = regexp.MustCompile(`^README\.([a-z]{2})((?:[-_](?:[A-Za-z]{4}|[A-Za-z]{2}|[0-9]{3}))*)\.md$`)

// IsTranslationName reports whether name looks like a translated README
// (README.zh.md, README.pt-BR.md). The language must be an ISO 639-1 code, so
// README.old.md or README.v2.md are not taken for translations. It only decides what
// counts as an unrecorded translation: a record may pair any files in its folder.
func IsTranslationName(name string) bool {
	m := translationName.FindStringSubmatch(name)
	return m != nil && slices.Contains(iso6391, m[1])
}

// iso6391 is the ISO 639-1 list of two-letter language codes.
var iso6391 = strings.Fields(`aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs
	ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd
	gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj
	kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt
	my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa
	sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt
	tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu`)
