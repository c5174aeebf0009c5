package jsstring

// IsLineTerminator reports whether r is an ECMAScript LineTerminator: the code points a
// regular expression's `.` does not match.
func IsLineTerminator(r rune) bool {
	return r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029
}

// IsSpace reports whether r is matched by the regular-expression class `\s`: ECMAScript
// WhiteSpace (TAB, VT, FF, ZWNBSP and every Zs space) or LineTerminator. It is not Go's
// unicode.IsSpace: U+FEFF is in, U+0085 is out.
func IsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
