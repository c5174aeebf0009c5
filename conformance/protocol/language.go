package protocol

import "strings"

// Languages are the ids a hello's optional "language" may name and the porting-trap
// catalogue (spec/porting-traps.md) has a row for: the language a port is written in, whose
// defaults decide which traps it can fall into. Kotlin and Java share the JVM's rows unless a
// row names one of them; TypeScript is JavaScript.
var Languages = []string{"cpp", "csharp", "go", "java", "javascript", "kotlin", "perl", "php", "python", "ruby", "rust", "swift", "typescript"}

// languageAliases are the other spellings a hello may use for a language id.
var languageAliases = map[string]string{
	"c++": "cpp", "cxx": "cpp", "c#": "csharp", "cs": "csharp", "dotnet": "csharp", ".net": "csharp",
	"fsharp": "csharp", "f#": "csharp", "golang": "go", "js": "javascript", "node": "javascript",
	"nodejs": "javascript", "ts": "typescript", "py": "python", "python3": "python", "rs": "rust", "kt": "kotlin",
	"perl5": "perl", "pl": "perl",
}

// ParseLanguage returns the language id s names (case and surrounding blanks ignored, the
// aliases above accepted), and whether the kit knows it. An unknown language is not an
// error: the hints are then given for every language, each saying which it is about.
func ParseLanguage(s string) (string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if a, ok := languageAliases[s]; ok {
		s = a
	}
	for _, l := range Languages {
		if l == s {
			return l, true
		}
	}
	return s, false
}
