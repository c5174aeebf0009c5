package retention

import (
	"strconv"

	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

// Truncated is the result of Truncate.
type Truncated struct {
	Text string
	// OmittedBytes counts the UTF-8 bytes of the original text left out of Text (the notice
	// itself not counted).
	OmittedBytes int
}

// Notice returns the omission notice appended to a truncated text.
func Notice(omitted int) string {
	return "\n[… omitted " + strconv.Itoa(omitted) + " UTF-8 bytes …]"
}

func noticeLen(omitted int) int {
	return len("\n[… omitted ") + decimalLen(omitted) + len(" UTF-8 bytes …]")
}

func decimalLen(n int) int {
	l := 1
	for n >= 10 {
		n /= 10
		l++
	}
	return l
}

// Truncate fits text into maxBytes UTF-8 bytes, keeping its head and tail and appending the
// exact omission notice: the seed's truncateWithNotice (spec SR-RET-6..9). It bisects the
// retained byte count n over [0, maxBytes] (mid rounded down; head ceil(n/2), tail floor(n/2))
// and keeps the last candidate that fitted; that bisection's answer, not the best fit, is the
// contract. When no candidate fits the text becomes "" with every byte omitted.
func Truncate(text string, maxBytes int) Truncated {
	enc := []byte(jsstring.ToWellFormed(jsstring.Normalize(text))) // TextEncoder's bytes
	total := len(enc)
	if total <= maxBytes {
		return Truncated{Text: text}
	}
	best := Truncated{Text: "", OmittedBytes: total}
	bestFound := false
	var bestKept headTail
	low, high := 0, maxBytes
	for low <= high {
		n := low + (high-low)/2
		k := retainHeadTail(enc, (n+1)/2, n/2)
		if k.textLen()+noticeLen(k.omitted) <= maxBytes {
			bestKept, bestFound = k, true
			low = n + 1
		} else {
			high = n - 1
		}
	}
	if bestFound {
		best = Truncated{Text: bestKept.text(enc) + Notice(bestKept.omitted), OmittedBytes: bestKept.omitted}
	}
	return best
}

// headTail is what dsh-retention's headTail TextRetainer keeps of an encoded text: the byte
// ranges [0, prefixEnd) and [suffixStart, len), and whether each starts with a BOM, which the
// default TextDecoder strips from each of its two decode calls.
type headTail struct {
	prefixEnd, suffixStart, total int
	prefixBOM, suffixBOM          bool
	omitted                       int
}

func (k headTail) textLen() int {
	n := k.prefixEnd + (k.total - k.suffixStart)
	if k.prefixBOM {
		n -= 3
	}
	if k.suffixBOM {
		n -= 3
	}
	return n
}

func (k headTail) text(enc []byte) string {
	p := enc[:k.prefixEnd]
	if k.prefixBOM {
		p = p[3:]
	}
	s := enc[k.suffixStart:]
	if k.suffixBOM {
		s = s[3:]
	}
	return string(p) + string(s)
}

// retainHeadTail keeps the first head and the last tail bytes of enc (valid UTF-8) and, when
// any byte is omitted, cuts both back to whole code points (SR-RET-7).
func retainHeadTail(enc []byte, head, tail int) headTail {
	total := len(enc)
	prefixEnd := min(head, total)
	suffixLen := min(total-prefixEnd, tail)
	suffixStart := total - suffixLen
	if prefixEnd+suffixLen < total {
		prefixEnd = trimIncompleteEnd(enc, prefixEnd)
		for suffixStart < total && enc[suffixStart]&0xC0 == 0x80 {
			suffixStart++
		}
	}
	k := headTail{prefixEnd: prefixEnd, suffixStart: suffixStart, total: total}
	k.prefixBOM = hasBOM(enc[:prefixEnd])
	k.suffixBOM = hasBOM(enc[suffixStart:])
	k.omitted = total - prefixEnd - (total - suffixStart)
	return k
}

func hasBOM(b []byte) bool { return len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF }

// trimIncompleteEnd drops an incomplete UTF-8 sequence at the end of enc[:end]: it walks back
// over at most three continuation bytes to a lead byte and cuts before that lead byte when
// the sequence it starts does not fit.
func trimIncompleteEnd(enc []byte, end int) int {
	i := end - 1
	for steps := 0; i >= 0 && steps < 3 && enc[i]&0xC0 == 0x80; steps++ {
		i--
	}
	if i < 0 {
		return end
	}
	var need int
	switch c := enc[i]; {
	case c < 0x80:
		need = 1
	case c&0xE0 == 0xC0:
		need = 2
	case c&0xF0 == 0xE0:
		need = 3
	case c&0xF8 == 0xF0:
		need = 4
	default:
		return end
	}
	if end-i < need {
		return i
	}
	return end
}
