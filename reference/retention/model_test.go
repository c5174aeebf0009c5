package retention_test

// A naive model of the seed's retention, transcribed statement by statement from
// lib/index.js (projectSessionConversation, retainReferencedSession, truncateWithNotice) and
// from dsh-retention's TextRetainer as quoted in UPSTREAM-FINDINGS.md §1. It re-serializes
// the whole object after every step, exactly as the seed does, and shares no code with the
// package under test beyond jsjson (JSON.stringify) and jsstring (Buffer.byteLength,
// TextEncoder).

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

// Buffer.byteLength(s, "utf8")
func modelByteLength(s string) int { return len(js.ToWellFormed(js.Normalize(s))) }

// new TextEncoder().encode(s)
func modelEncode(s string) []byte { return []byte(js.ToWellFormed(js.Normalize(s))) }

// new TextDecoder().decode(b): strips one leading BOM. The model only ever decodes whole code
// points; anything else would need the WHATWG replacement rules, so it panics instead.
func modelDecode(b []byte) string {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		b = b[3:]
	}
	if !utf8.Valid(b) {
		panic(fmt.Sprintf("model: decoding invalid UTF-8 % x", b))
	}
	return string(b)
}

func trimTrailingPartialUtf8(bytes []byte) []byte {
	i := len(bytes) - 1
	for i >= 0 && (bytes[i]&192) == 128 && len(bytes)-i <= 3 {
		i--
	}
	if i < 0 {
		return bytes
	}
	lead := bytes[i]
	expected := 0
	switch {
	case lead < 128:
		expected = 1
	case lead < 224:
		expected = 2
	case lead < 240:
		expected = 3
	case lead < 248:
		expected = 4
	}
	if expected == 0 {
		return bytes
	}
	if len(bytes)-i < expected {
		return bytes[:i]
	}
	return bytes
}

func trimLeadingContinuationUtf8(bytes []byte) []byte {
	i := 0
	for i < len(bytes) && (bytes[i]&192) == 128 {
		i++
	}
	return bytes[i:]
}

// textRetainer is new TextRetainer({kind:"headTail", headBytes, tailBytes}), push(text),
// finish(): it returns the text and the exact omitted count (-1 for {kind:"none"}).
func textRetainer(text string, headBytes, tailBytes int) (string, int) {
	prefixCap, suffixCap := headBytes, tailBytes
	var prefixChunks, suffixChunks [][]byte
	prefixHeld, suffixHeld, total := 0, 0, 0
	// push(chunk)
	bytes := modelEncode(text)
	total += len(bytes)
	room := prefixCap - prefixHeld
	take := max(0, min(room, len(bytes)))
	if take > 0 {
		prefixChunks = append(prefixChunks, bytes[:take])
		prefixHeld += take
	}
	if suffixCap > 0 {
		suffixChunks = append(suffixChunks, bytes)
		suffixHeld += len(bytes)
		for len(suffixChunks) > 0 && suffixHeld-len(suffixChunks[0]) >= suffixCap {
			suffixHeld -= len(suffixChunks[0])
			suffixChunks = suffixChunks[1:]
		}
		if len(suffixChunks) > 0 && suffixHeld > suffixCap {
			excess := suffixHeld - suffixCap
			suffixChunks[0] = suffixChunks[0][excess:]
			suffixHeld -= excess
		}
	}
	omittedAt := func(total int) int {
		prefixLen := min(total, prefixCap)
		suffixLen := min(total-prefixLen, suffixCap)
		return total - prefixLen - suffixLen
	}
	// finish()
	prefixLen := min(total, prefixCap)
	suffixLen := min(total-prefixLen, suffixCap)
	prefix := concat(prefixChunks)
	suffix := concat(suffixChunks)[suffixHeld-suffixLen:]
	budgetOmitted := omittedAt(total)
	keptPrefix, keptSuffix := prefix, suffix
	if budgetOmitted > 0 {
		keptPrefix, keptSuffix = trimTrailingPartialUtf8(prefix), trimLeadingContinuationUtf8(suffix)
	}
	var out string
	if budgetOmitted > 0 {
		out = modelDecode(keptPrefix) + modelDecode(keptSuffix)
	} else {
		out = modelDecode(concat([][]byte{prefix, suffix}))
	}
	omitted := total - len(keptPrefix) - len(keptSuffix)
	if omitted > 0 {
		return out, omitted
	}
	return out, -1
}

func concat(chunks [][]byte) []byte {
	var out []byte
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out
}

// truncateWithNotice
func modelTruncate(text string, maxOutputBytes int) (string, int) {
	if modelByteLength(text) <= maxOutputBytes {
		return text, 0
	}
	low, high := 0, maxOutputBytes
	bestText, bestOmitted := "", modelByteLength(text)
	for low <= high {
		retainedBytes := int(math.Floor(float64(low+high) / 2))
		t, omitted := textRetainer(text, int(math.Ceil(float64(retainedBytes)/2)), int(math.Floor(float64(retainedBytes)/2)))
		if omitted < 0 {
			panic("session-reference retention did not report exact omitted bytes")
		}
		candidate := t + "\n[… omitted " + fmt.Sprint(omitted) + " UTF-8 bytes …]"
		if modelByteLength(candidate) <= maxOutputBytes {
			bestText, bestOmitted = candidate, omitted
			low = retainedBytes + 1
		} else {
			high = retainedBytes - 1
		}
	}
	return bestText, bestOmitted
}

type modelItem struct {
	role         string
	text         string
	checkpoint   bool
	originalText string
	omittedBytes int
}

// projectSessionConversation, for well-formed surfaces.
func modelProject(events []any) []modelItem {
	get := func(v any, k string) any {
		o, _ := v.(*jsjson.Object)
		x, _ := o.Get(k)
		return x
	}
	textContent := func(content any) string {
		var parts []string
		for _, b := range content.([]any) {
			if get(b, "type") == "text" {
				if s, ok := get(b, "text").(string); ok {
					parts = append(parts, s)
				}
			}
		}
		return strings.Join(parts, "\n")
	}
	var conversation []modelItem
	for _, event := range events {
		switch get(event, "type") {
		case "user/message":
			src := get(get(event, "data"), "source")
			checkpoint := get(src, "kind") == "plugin" && get(src, "plugin") == "compact"
			if !checkpoint && get(src, "kind") != "user" {
				break
			}
			text := js.Normalize(textContent(get(get(event, "data"), "content")))
			if text != "" {
				conversation = append(conversation, modelItem{"user", text, checkpoint, text, 0})
			}
		case "assistant/message":
			text := js.Normalize(textContent(get(get(get(event, "data"), "message"), "content")))
			if text != "" {
				conversation = append(conversation, modelItem{"assistant", text, false, text, 0})
			}
		case "tool/result":
		default:
			panic("model: unknown event")
		}
	}
	return conversation
}

type modelSnapshot struct {
	id                 string
	cwd                any // nil or string
	capturedThroughSeq any // nil or float64
	events             []any
}

type modelStats struct {
	Compacted        bool
	OriginalMessages int
	RetainedMessages int
	OmittedMessages  int
	OmittedBytes     int
	Truncated        bool
}

// retainReferencedSession: the serialized data object, its stats, and false for undefined.
func modelRetain(snapshot modelSnapshot, label string, maxBytes int) (string, modelStats, bool) {
	original := modelProject(snapshot.events)
	retained := append([]modelItem(nil), original...)
	omittedMessages, droppedOmittedBytes := 0, 0
	data := func() *jsjson.Object {
		conv := make([]any, len(retained))
		for i, it := range retained {
			conv[i] = jsjson.NewObject().Set("role", it.role).Set("text", it.text)
		}
		return jsjson.NewObject().
			Set("sessionId", snapshot.id).
			Set("label", label).
			Set("cwd", snapshot.cwd).
			Set("capturedThroughSeq", snapshot.capturedThroughSeq).
			Set("conversation", conv)
	}
	stringifyTagSafeJSON := func(v any) string {
		b, err := jsjson.Marshal(v)
		if err != nil {
			panic(err)
		}
		return strings.ReplaceAll(string(b), "<", `\u003c`)
	}
	size := func() int { return modelByteLength(stringifyTagSafeJSON(data())) }
	for size() > maxBytes {
		newestIndex := len(retained) - 1
		dropIndex := -1
		for index, item := range retained {
			if !item.checkpoint && index != newestIndex {
				dropIndex = index
				break
			}
		}
		if dropIndex < 0 {
			break
		}
		removed := retained[dropIndex]
		retained = append(retained[:dropIndex:dropIndex], retained[dropIndex+1:]...)
		omittedMessages++
		droppedOmittedBytes += modelByteLength(removed.originalText)
	}
	for size() > maxBytes {
		longestIndex, longestBytes := -1, 0
		for index, item := range retained {
			if bytes := modelByteLength(item.text); bytes > longestBytes {
				longestBytes, longestIndex = bytes, index
			}
		}
		if longestIndex < 0 || longestBytes == 0 {
			return "", modelStats{}, false
		}
		overflow := size() - maxBytes
		target := max(0, longestBytes-overflow)
		item := retained[longestIndex]
		text, omitted := modelTruncate(item.originalText, target)
		if text == retained[longestIndex].text {
			return "", modelStats{}, false
		}
		item.text, item.omittedBytes = text, omitted
		retained[longestIndex] = item
	}
	st := modelStats{OriginalMessages: len(original), RetainedMessages: len(retained), OmittedMessages: omittedMessages}
	for _, it := range original {
		st.Compacted = st.Compacted || it.checkpoint
	}
	for _, it := range retained {
		st.OmittedBytes += it.omittedBytes
	}
	st.OmittedBytes += droppedOmittedBytes
	st.Truncated = omittedMessages > 0 || st.OmittedBytes > 0
	return stringifyTagSafeJSON(data()), st, true
}
