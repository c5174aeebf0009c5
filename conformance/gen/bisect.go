package gen

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// BisectionNotBestFit reports whether the seed's truncateWithNotice, which bisects the
// retained byte count, keeps fewer bytes of text than the largest count that fits in maxBytes.
// The fit is not monotone in the count (a cut that drops a BOM, a notice one digit shorter),
// so the two part ways at some budgets: the partition RetentionNotBestFit aims at.
func BisectionNotBestFit(text string, maxBytes int) bool {
	enc := []byte(wire.ToWellFormed(wire.Normalize(text)))
	if len(enc) <= maxBytes || maxBytes > 20000 {
		return false
	}
	low, high, lastFit := 0, maxBytes, -1
	var kept [2]int
	for low <= high {
		n := low + (high-low)/2
		if k, ok := headTailFits(enc, n, maxBytes); ok {
			low, lastFit, kept = n+1, n, k
		} else {
			high = n - 1
		}
	}
	// A larger count that fits and keeps other bytes (two counts may keep the same whole
	// characters).
	for n := maxBytes; n > lastFit; n-- {
		if k, ok := headTailFits(enc, n, maxBytes); ok {
			return k != kept
		}
	}
	return false
}

// headTailFits is one step of the bisection: dsh-retention's headTail retainer keeping n
// bytes of enc (head ceil(n/2), tail floor(n/2), cut to whole characters, a leading BOM of
// each part dropped by TextDecoder) plus the notice, against maxBytes.
// It returns the kept byte ranges' bounds, prefix end and suffix start.
func headTailFits(enc []byte, n, maxBytes int) ([2]int, bool) {
	total := len(enc)
	prefixEnd := min((n+1)/2, total)
	suffixStart := total - min(total-prefixEnd, n/2)
	if prefixEnd < suffixStart {
		for prefixEnd > 0 && enc[prefixEnd]&0xC0 == 0x80 {
			prefixEnd--
		}
		for suffixStart < total && enc[suffixStart]&0xC0 == 0x80 {
			suffixStart++
		}
	}
	kept := prefixEnd + total - suffixStart
	if isBOM(enc[:prefixEnd]) {
		kept -= 3
	}
	if isBOM(enc[suffixStart:]) {
		kept -= 3
	}
	return [2]int{prefixEnd, suffixStart}, kept+len(contract.Notice(suffixStart-prefixEnd)) <= maxBytes
}

func isBOM(b []byte) bool { return len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF }

// bisectTruncate is truncateWithNotice (SR-RET-6) replayed on headTailFits: the text the
// seed's bisection keeps. notBestFitBudget aims with it; TestHeadTailFitsIsTheReferenceBisection
// checks it against the reference's truncation.
func bisectTruncate(text string, maxBytes int) string {
	enc := []byte(wire.ToWellFormed(wire.Normalize(text)))
	if len(enc) <= maxBytes {
		return text
	}
	best := ""
	low, high := 0, maxBytes
	for low <= high {
		n := low + (high-low)/2
		if k, ok := headTailFits(enc, n, maxBytes); ok {
			best = keptText(enc, k)
			low = n + 1
		} else {
			high = n - 1
		}
	}
	return best
}

// keptText is the text a head-tail cut keeps: the two parts, each without a leading BOM,
// then the notice.
func keptText(enc []byte, k [2]int) string {
	p, s := enc[:k[0]], enc[k[1]:]
	if isBOM(p) {
		p = p[3:]
	}
	if isBOM(s) {
		s = s[3:]
	}
	return string(p) + string(s) + contract.Notice(k[1]-k[0])
}

// bestFitTruncate is truncateWithNotice with the largest fitting count instead of the
// bisection's: the mistake RetentionNotBestFit's budgets expose.
func bestFitTruncate(text string, maxBytes int) string {
	enc := []byte(wire.ToWellFormed(wire.Normalize(text)))
	if len(enc) <= maxBytes {
		return text
	}
	for n := maxBytes; n >= 0; n-- {
		if k, ok := headTailFits(enc, n, maxBytes); ok {
			return keptText(enc, k)
		}
	}
	return ""
}

// retainOne is retainReferencedSession's truncation loop for a source of one message whose
// serialized size is base plus its text's; trunc truncates the original text to a target.
func retainOne(text string, base, budget int, trunc func(string, int) string) (string, bool) {
	cur := text
	for base+contract.TagSafeSize(cur) > budget {
		if cur == "" {
			return "", false
		}
		target := max(0, len(cur)-(base+contract.TagSafeSize(cur)-budget))
		next := trunc(text, target)
		if next == cur {
			return "", false
		}
		cur = next
	}
	return cur, true
}
