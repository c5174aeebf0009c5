package mutants

// Python json.loads's own limits (spec/porting-traps.md, TRAP-JSON-PARSER-LIMITS), for the
// trap mutants whose decodeURI lets them escape unmapped. json.loads reads the text in order
// and stops at the first limit it meets: an array or object nested beyond the interpreter's
// recursion limit (RecursionError, which is not a ValueError), or an integer literal of more
// than 4,300 digits (ValueError, which is not a json.JSONDecodeError; a literal with a
// fraction or an exponent is a float, without a limit). Syntax errors are left to the
// parser that follows, as the mutants only need the limit's own inputs.

const (
	// pythonKitRecursionLimit is sys.getrecursionlimit() under the Python kit's serve; a
	// port on its own main loop has 1,000.
	pythonKitRecursionLimit = 20000
	// pythonMaxStrDigits is sys.int_info.default_max_str_digits (Python 3.11 and later).
	pythonMaxStrDigits = 4300
)

// pythonLimit reports the first limit json.loads meets in text: "recursion" or "digits".
func pythonLimit(text string) (kind string, found bool) {
	depth := 0
	for i := 0; i < len(text); i++ {
		switch ch := text[i]; {
		case ch == '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case ch == '[' || ch == '{':
			depth++
			if depth > pythonKitRecursionLimit {
				return "recursion", true
			}
		case ch == ']' || ch == '}':
			depth--
		case '1' <= ch && ch <= '9':
			j := i
			for j < len(text) && '0' <= text[j] && text[j] <= '9' {
				j++
			}
			isFloat := j < len(text) && (text[j] == '.' || text[j] == 'e' || text[j] == 'E')
			if !isFloat && j-i > pythonMaxStrDigits {
				return "digits", true
			}
			i = j - 1
		}
	}
	return "", false
}

// pythonRecursion is json.loads under `except ValueError`: RecursionError escapes.
func pythonRecursion(text string) (string, bool) {
	if kind, ok := pythonLimit(text); ok && kind == "recursion" {
		return "RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string", true
	}
	return "", false
}

// pythonJSONDecodeErrorOnly is json.loads under `except json.JSONDecodeError`: both limits
// escape.
func pythonJSONDecodeErrorOnly(text string) (string, bool) {
	switch kind, _ := pythonLimit(text); kind {
	case "recursion":
		return pythonRecursion(text)
	case "digits":
		return "ValueError: Exceeds the limit (4300 digits) for integer string conversion", true
	}
	return "", false
}
