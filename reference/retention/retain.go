package retention

import (
	"container/heap"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
)

// Data is one source's snapshot as the prompt serializes it (ReferencedSessionData).
type Data struct {
	SessionID          string
	Label              string
	CWD                *string  // serialized as null when nil
	CapturedThroughSeq *float64 // serialized as null when nil
	Conversation       []Message
}

// Message is one retained conversation entry as serialized: role and visible text.
type Message struct {
	Role Role
	Text string
}

// Stats are the retention facts recorded beside the context (ReferenceRetentionStats).
type Stats struct {
	Compacted        bool
	OriginalMessages int
	RetainedMessages int
	OmittedMessages  int
	OmittedBytes     int
	Truncated        bool
}

// AppendJSON appends the tag-safe JSON of d, keys in the seed's order: sessionId, label,
// cwd, capturedThroughSeq, conversation[{role, text}].
func (d *Data) AppendJSON(dst []byte) []byte {
	dst = d.appendFixedHead(dst)
	for i, m := range d.Conversation {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"role":"`...)
		dst = append(dst, m.Role...)
		dst = append(dst, `","text":`...)
		dst = jsjson.AppendStringTagSafe(dst, m.Text)
		dst = append(dst, '}')
	}
	return append(dst, "]}"...)
}

func (d *Data) appendFixedHead(dst []byte) []byte {
	dst = append(dst, `{"sessionId":`...)
	dst = jsjson.AppendStringTagSafe(dst, d.SessionID)
	dst = append(dst, `,"label":`...)
	dst = jsjson.AppendStringTagSafe(dst, d.Label)
	dst = append(dst, `,"cwd":`...)
	if d.CWD == nil {
		dst = append(dst, "null"...)
	} else {
		dst = jsjson.AppendStringTagSafe(dst, *d.CWD)
	}
	dst = append(dst, `,"capturedThroughSeq":`...)
	if d.CapturedThroughSeq == nil {
		dst = append(dst, "null"...)
	} else {
		dst = jsjson.AppendNumber(dst, *d.CapturedThroughSeq)
	}
	return append(dst, `,"conversation":[`...)
}

// fixedSize is the serialized size of d with an empty conversation.
func (d *Data) fixedSize() int { return len(d.appendFixedHead(nil)) + len("]}") }

// messageSize is the serialized size of one conversation entry.
func messageSize(role Role, text string) int {
	return len(`{"role":"","text":}`) + len(role) + jsjson.StringSize(text, true)
}

// entry is one projected message under retention.
type entry struct {
	Item
	text    string // current text, possibly truncated
	bytes   int    // Buffer.byteLength(text)
	size    int    // serialized size of the entry
	omitted int    // omitted bytes of the current truncation
	dropped bool
	pos     int // index in the projection
	heapIdx int
}

// Retain fits the projection of surface into maxBytes of serialized JSON (spec SR-RET-1..5):
// it drops the oldest non-checkpoint message other than the newest until the object fits,
// then repeatedly truncates the longest retained text. It returns ok=false when the fixed
// fields cannot fit (the service's SESSION_REFERENCE_BUDGET_EXCEEDED), and a *SurfaceError
// when the surface breaks the query contract.
func Retain(surface sessionquery.Surface, label string, maxBytes int) (data Data, stats Stats, ok bool, err error) {
	items, err := Project(surface.Events)
	if err != nil {
		return Data{}, Stats{}, false, err
	}
	d, st, ok := RetainItems(surface.Session.ID, label, surface.Session.CWD, surface.CapturedThroughSeq, items, maxBytes)
	return d, st, ok, nil
}

// RetainItems is Retain over an already projected conversation.
func RetainItems(sessionID, label string, cwd *string, capturedThroughSeq *float64, items []Item, maxBytes int) (Data, Stats, bool) {
	d := Data{SessionID: sessionID, Label: label, CWD: cwd, CapturedThroughSeq: capturedThroughSeq}
	entries := make([]entry, len(items))
	for i, it := range items {
		e := &entries[i]
		if !utf8.ValidString(it.Text) { // valid UTF-8 is already canonical WTF-8
			it.Text = jsstring.Normalize(it.Text) // the JavaScript string it denotes
		}
		e.Item, e.text, e.pos = it, it.Text, i
		e.bytes = byteLength(it.Text)
		e.size = -1 // computed only for entries that may be kept
	}
	sizeOf := func(e *entry) int {
		if e.size < 0 {
			e.size = messageSize(e.Role, e.text)
		}
		return e.size
	}
	var omittedMessages, droppedBytes int

	// Phase 1: drop the oldest non-checkpoint message that is not the newest, until the object
	// fits. Entry sizes are positive, so the seed's loop stops exactly when the droppable
	// messages it has not reached are the longest run of newest droppable messages that fits
	// beside the fixed fields, the checkpoints and the newest message. Scanning back from the
	// newest finds that run without sizing the messages that will be dropped.
	size, count := d.fixedSize(), 0
	for i := range entries {
		if e := &entries[i]; e.Checkpoint || i == len(entries)-1 {
			size += sizeOf(e)
			count++
		}
	}
	commas := func(n int) int { return max(0, n-1) }
	cut := -1 // droppable entries at or before cut are dropped
	for i := len(entries) - 2; i >= 0; i-- {
		e := &entries[i]
		if e.Checkpoint {
			continue
		}
		if size+sizeOf(e)+commas(count+1) > maxBytes {
			cut = i
			break
		}
		size += e.size
		count++
	}
	for i := 0; i <= cut; i++ {
		if e := &entries[i]; !e.Checkpoint {
			e.dropped = true
			omittedMessages++
			droppedBytes += e.bytes
		}
	}
	size += commas(count)

	// Phase 2: truncate the longest retained text (first one on ties) from its original.
	if size > maxBytes {
		h := &longestHeap{}
		for i := range entries {
			if !entries[i].dropped {
				entries[i].heapIdx = len(h.items)
				h.items = append(h.items, &entries[i])
			}
		}
		heap.Init(h)
		for size > maxBytes {
			if h.Len() == 0 {
				return Data{}, Stats{}, false
			}
			e := h.items[0]
			if e.bytes == 0 {
				return Data{}, Stats{}, false
			}
			overflow := size - maxBytes
			target := max(0, e.bytes-overflow)
			t := Truncate(e.Item.Text, target)
			if t.Text == e.text {
				return Data{}, Stats{}, false
			}
			newSize := messageSize(e.Role, t.Text)
			size += newSize - e.size
			e.text, e.size, e.bytes, e.omitted = t.Text, newSize, byteLength(t.Text), t.OmittedBytes
			heap.Fix(h, e.heapIdx)
		}
	}

	st := Stats{OriginalMessages: len(items), RetainedMessages: count, OmittedMessages: omittedMessages}
	st.OmittedBytes = droppedBytes
	d.Conversation = make([]Message, 0, count)
	for i := range entries {
		e := &entries[i]
		if e.Checkpoint {
			st.Compacted = true
		}
		if e.dropped {
			continue
		}
		st.OmittedBytes += e.omitted
		d.Conversation = append(d.Conversation, Message{Role: e.Role, Text: e.text})
	}
	st.Truncated = st.OmittedMessages > 0 || st.OmittedBytes > 0
	return d, st, true
}

// byteLength is Buffer.byteLength(s, "utf8").
func byteLength(s string) int { return len(s) } // canonical WTF-8: a lone surrogate is 3 bytes, as U+FFFD

// longestHeap orders entries by current byte length, longest first, then by position, which
// is the seed's "first strictly longest" scan.
type longestHeap struct{ items []*entry }

func (h *longestHeap) Len() int { return len(h.items) }
func (h *longestHeap) Less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	if a.bytes != b.bytes {
		return a.bytes > b.bytes
	}
	return a.pos < b.pos
}
func (h *longestHeap) Swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.items[i].heapIdx = i
	h.items[j].heapIdx = j
}
func (h *longestHeap) Push(x any) {
	e := x.(*entry)
	e.heapIdx = len(h.items)
	h.items = append(h.items, e)
}
func (h *longestHeap) Pop() any {
	e := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return e
}
