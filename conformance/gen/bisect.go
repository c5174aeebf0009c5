package gen

import (
	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/retention"
)

// BisectionNotBestFit reports whether the seed's truncateWithNotice, which bisects the
// retained byte count, keeps fewer bytes of text than the largest count that fits in maxBytes.
// The fit is not monotone in the count (a cut that drops a BOM, a notice one digit shorter),
// so the two part ways at some budgets: the partition RetentionNotBestFit aims at.
func BisectionNotBestFit(text string, maxBytes int) bool {
	enc := []byte(jsstring.ToWellFormed(jsstring.Normalize(text)))
	if len(enc) <= maxBytes || maxBytes > 20000 {
		return false
	}
	low, high, lastFit := 0, maxBytes, -1
	for low <= high {
		n := low + (high-low)/2
		if headTailFits(enc, n, maxBytes) {
			low, lastFit = n+1, n
		} else {
			high = n - 1
		}
	}
	for n := maxBytes; n > lastFit; n-- {
		if headTailFits(enc, n, maxBytes) {
			return true
		}
	}
	return false
}

// headTailFits is one step of the bisection: dsh-retention's headTail retainer keeping n
// bytes of enc (head ceil(n/2), tail floor(n/2), cut to whole characters, a leading BOM of
// each part dropped by TextDecoder) plus the notice, against maxBytes.
func headTailFits(enc []byte, n, maxBytes int) bool {
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
	return kept+len(retention.Notice(suffixStart-prefixEnd)) <= maxBytes
}

func isBOM(b []byte) bool { return len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF }
