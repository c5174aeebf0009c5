package mutants

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/retention"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
)

// byteLen is Buffer.byteLength(s, "utf8").
func (s *portService) byteLen(x string) int {
	switch {
	case s.p.k.trap.byteLen != nil:
		return s.p.k.trap.byteLen(x) // MUTANT: a language's length
	case s.p.k.runeCountBytes:
		return utf8.RuneCountInString(x) // MUTANT: characters, not bytes
	case s.p.k.utf16Length:
		return len(jsstring.UTF16(x)) // MUTANT: JavaScript's .length, UTF-16 code units, not bytes
	case s.p.k.surrogateOne:
		lone := 0 // MUTANT: a lone surrogate counts 1 byte, not the 3 of U+FFFD
		for i := 0; i < len(x); {
			r, n := jsstring.DecodeRune(x[i:])
			if jsstring.IsSurrogate(r) {
				lone++
			}
			i += n
		}
		return jsstring.ByteLength(x) - 2*lone
	}
	return jsstring.ByteLength(x)
}

type retainedItem struct {
	role       retention.Role
	text, orig string
	checkpoint bool
	omitted    int
}

// retain is the seed's retainReferencedSession, ported literally (it re-serializes the
// object after every step).
func (s *portService) retain(surf sessionquery.Surface, label string, items []retention.Item) (retention.Data, retention.Stats, bool) {
	k := s.p.k
	maxBytes := s.cfg.MaxReferenceBytes
	if k.trap.narrowBudget {
		maxBytes = wrapInt32(maxBytes) // MUTANT: an int budget
	}
	if k.trap.int32Budget {
		maxBytes = int(int32(maxBytes)) // MUTANT: Java's (int) of a long keeps the low 32 bits
	}
	retained := make([]retainedItem, len(items))
	for i, it := range items {
		t := jsstring.Normalize(it.Text)
		retained[i] = retainedItem{role: it.Role, text: t, orig: t, checkpoint: it.Checkpoint}
	}
	data := func() retention.Data {
		d := retention.Data{SessionID: surf.Session.ID, Label: label, CWD: surf.Session.CWD, CapturedThroughSeq: surf.CapturedThroughSeq}
		for _, r := range retained {
			d.Conversation = append(d.Conversation, retention.Message{Role: r.role, Text: r.text})
		}
		return d
	}
	size := func() int {
		if k.rawTextBudget {
			n := 0 // MUTANT: the texts' bytes, not the serialized object's
			for _, r := range retained {
				n += s.byteLen(r.text)
			}
			return n
		}
		d := data()
		j, _ := snapshotJSON(dataValue(d, k), k)
		return s.byteLen(strings.ReplaceAll(j, "<", `\u003c`))
	}
	omittedMessages, dropped := 0, 0
	for size() > maxBytes {
		newest := len(retained) - 1
		drop := -1
		for i, r := range retained {
			isNewest := i == newest
			if k.trap.newestByValue {
				isNewest = r == retained[newest] // MUTANT: value equality (a C# record, a Go struct, a Python dataclass)
			}
			if (!r.checkpoint || k.dropCheckpoints) && (!isNewest || k.dropNewest) {
				drop = i
				break
			}
		}
		if drop < 0 {
			break
		}
		omittedMessages++
		dropped += s.byteLen(retained[drop].orig)
		retained = append(retained[:drop], retained[drop+1:]...)
	}
	for size() > maxBytes {
		longest, longestBytes := -1, 0
		for i, r := range retained {
			if s.p.k.longestByRunes {
				// MUTANT: the longest by characters; its bytes are still the target's base
				if longest < 0 || utf8.RuneCountInString(r.text) > utf8.RuneCountInString(retained[longest].text) {
					longest, longestBytes = i, s.byteLen(r.text)
				}
				continue
			}
			if b := s.byteLen(r.text); b > longestBytes {
				longest, longestBytes = i, b
			}
		}
		if longest < 0 || longestBytes == 0 {
			return retention.Data{}, retention.Stats{}, false
		}
		overflow := size() - maxBytes
		target := max(0, longestBytes-overflow)
		r := &retained[longest]
		from := r.orig
		if k.truncateFromCurrent {
			from = r.text // MUTANT: truncates what an earlier truncation left
		}
		t, omitted := s.truncate(from, target)
		if t == r.text {
			return retention.Data{}, retention.Stats{}, false
		}
		r.text, r.omitted = t, omitted
	}
	st := retention.Stats{OriginalMessages: len(items), RetainedMessages: len(retained), OmittedMessages: omittedMessages, OmittedBytes: dropped}
	for _, it := range items {
		st.Compacted = st.Compacted || it.Checkpoint
	}
	for _, r := range retained {
		st.OmittedBytes += r.omitted
	}
	st.Truncated = st.OmittedMessages > 0 || st.OmittedBytes > 0
	return data(), st, true
}

// truncate is the seed's truncateWithNotice with dsh-retention's headTail TextRetainer.
func (s *portService) truncate(text string, maxBytes int) (string, int) {
	k := s.p.k
	total := s.byteLen(text)
	if total <= maxBytes {
		return text, 0
	}
	enc := []byte(jsstring.ToWellFormed(jsstring.Normalize(text)))
	if k.trap.surrogatePass {
		enc = []byte(jsstring.Normalize(text)) // MUTANT: lone surrogates encoded as themselves (WTF-8)
	}
	candidate := func(n int) (string, int) {
		kept, omitted := s.headTail(enc, (n+1)/2, n/2)
		dots := "…"
		if k.asciiEllipsis {
			dots = "..." // MUTANT: ASCII dots in the notice
		}
		count := strconv.Itoa(omitted)
		if k.groupedCount {
			count = grouped(omitted) // MUTANT: the count written as toLocaleString/"{0:N0}"/f"{n:,}" write it
		}
		return kept + "\n[" + dots + " omitted " + count + " UTF-8 bytes " + dots + "]", omitted
	}
	bestText, bestOmitted := "", total
	if k.bestFit {
		for n := maxBytes; n >= 0; n-- { // MUTANT: the largest n that fits
			if c, o := candidate(n); s.byteLen(c) <= maxBytes {
				return c, o
			}
		}
		return bestText, bestOmitted
	}
	low, high := 0, maxBytes
	if k.bisectHighBelow {
		high = maxBytes - 1 // MUTANT: the upper bound one byte below the target
	}
	for low <= high {
		n := (low + high) / 2
		if c, o := candidate(n); s.byteLen(c) <= maxBytes {
			bestText, bestOmitted = c, o
			low = n + 1
		} else {
			high = n - 1
		}
	}
	return bestText, bestOmitted
}

// headTail keeps the first head and last tail bytes of enc cut to whole code points, decodes
// each part with a TextDecoder (which drops one leading BOM) and counts the omitted bytes.
func (s *portService) headTail(enc []byte, head, tail int) (string, int) {
	total := len(enc)
	prefixEnd := min(head, total)
	suffixLen := min(total-prefixEnd, tail)
	suffixStart := total - suffixLen
	if prefixEnd+suffixLen < total && !s.p.k.trap.cutReplace {
		for prefixEnd > 0 && !utf8.Valid(enc[:prefixEnd]) && !(s.p.k.trap.surrogatePass && jsstring.Canonical(string(enc[:prefixEnd]))) {
			prefixEnd--
		}
		for suffixStart < total && enc[suffixStart]&0xC0 == 0x80 {
			suffixStart++
		}
	}
	h, t := string(enc[:prefixEnd]), string(enc[suffixStart:])
	if s.p.k.trap.cutReplace {
		// MUTANT: the cut bytes decoded with replacement (Java's new String(bytes, UTF_8),
		// .NET's Encoding.UTF8.GetString): a split character becomes U+FFFD
		h, t = strings.ToValidUTF8(h, "\uFFFD"), strings.ToValidUTF8(t, "\uFFFD")
	}
	if s.p.k.strictNoncharRetain {
		h, t = strings.Map(replaceNonchar, h), strings.Map(replaceNonchar, t) // MUTANT: Encode::decode('UTF-8', …)
	}
	if s.p.k.trap.stripAllBOMs {
		h, t = strings.TrimLeft(h, "\uFEFF"), strings.TrimLeft(t, "\uFEFF") // MUTANT: every leading BOM
	}
	if s.p.k.trap.stripAllTailBOMs {
		t = strings.TrimLeft(t, "\uFEFF") // MUTANT: every leading BOM of the tail
	}
	if !s.p.k.keepBOM { // MUTANT keepBOM: TextDecoder's BOM stripping forgotten
		h, t = strings.TrimPrefix(h, "\uFEFF"), strings.TrimPrefix(t, "\uFEFF")
	}
	return h + t, total - prefixEnd - (total - suffixStart)
}

// grouped writes n with a comma between groups of three digits, as en-US number formatting
// does ("4,900").
func grouped(n int) string {
	d := strconv.Itoa(n)
	for i := len(d) - 3; i > 0; i -= 3 {
		d = d[:i] + "," + d[i:]
	}
	return d
}
