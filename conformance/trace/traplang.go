package trace

import (
	"fmt"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// Affected is what a trap's table says of one language (spec/porting-traps.md, "Tables").
type Affected struct {
	Language string // a protocol.Languages id
	Row      string // the table's label of the row, e.g. "Java/Kotlin", "C++ (std)"
	// Applies: the language's default API falls into the trap (the row names inputs that
	// differ from JavaScript). A row whose last column is "none…", "—" or only "see TRAP-…"
	// (another trap explains that language) does not apply.
	Applies bool
	// Measured: an M row (measured with the version given), not a D row (documented).
	Measured bool
}

// Applies reports whether the trap's table says the language's defaults fall into it, and
// whether the table has a row for the language at all.
// JavaScript and TypeScript have a row only where JavaScript itself can go wrong: their
// defaults are the contract, so a trap without such a row does not apply to them.
func (t Trap) Applies(language string) (applies, known bool) {
	for _, a := range t.Languages {
		if a.Language == language {
			return a.Applies, true
		}
	}
	if language == "javascript" || language == "typescript" {
		return false, true
	}
	return false, false
}

// Measured reports whether the language's row was measured (an M row).
func (t Trap) Measured(language string) bool {
	for _, a := range t.Languages {
		if a.Language == language {
			return a.Measured
		}
	}
	return false
}

// About names the rows whose languages fall into the trap, in table order ("Go, C#/.NET,
// Swift"): what a hint says it is about when the port's language is not known.
func (t Trap) About() []string {
	var out []string
	seen := map[string]bool{}
	for _, a := range t.Languages {
		if a.Applies && !seen[a.Row] {
			seen[a.Row] = true
			out = append(out, a.Row)
		}
	}
	return out
}

// tableRow is one row of a trap's table: the language label, the version column and the
// last column (the inputs that differ from JavaScript).
type tableRow struct{ label, version, differs string }

func splitRow(line string) (tableRow, bool) {
	cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
	if len(cells) < 3 {
		return tableRow{}, false
	}
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	if cells[0] == "language" || strings.HasPrefix(cells[0], "---") {
		return tableRow{}, false
	}
	return tableRow{label: cells[0], version: cells[2], differs: cells[len(cells)-1]}, true
}

// rowLanguages maps a table's language label to the protocol's language ids.
var rowLanguages = map[string][]string{
	"Python": {"python"}, "Go": {"go"}, "Rust": {"rust"},
	"Java/Kotlin": {"java", "kotlin"}, "Java": {"java"}, "Kotlin": {"kotlin"},
	"C#/.NET": {"csharp"}, "Swift": {"swift"}, "Ruby": {"ruby"}, "PHP": {"php"}, "Perl": {"perl"},
	"C++": {"cpp"}, "C++ (std)": {"cpp"}, "C++ (ICU)": {"cpp"},
	"JavaScript": {"javascript", "typescript"}, "JavaScript itself": {"javascript", "typescript"},
	"all": protocol.Languages,
}

// parseRows reads a trap's table into one Affected per language id. A row's last column
// decides: "none…", "—" or "see TRAP-…" alone mean the language's default does not fall
// into the trap; "as X" means what X's row says ("as X, and …" adds inputs: it applies);
// anything else names inputs that differ.
func parseRows(rows []tableRow) ([]Affected, error) {
	byLabel := map[string]tableRow{}
	for _, r := range rows {
		byLabel[r.label] = r
	}
	var applies func(r tableRow, depth int) (bool, error)
	applies = func(r tableRow, depth int) (bool, error) {
		d := strings.TrimSpace(r.differs)
		low := strings.ToLower(d)
		switch {
		case d == "" || d == "—" || d == "-" || strings.HasPrefix(low, "none"):
			return false, nil
		case strings.HasPrefix(d, "see TRAP-") && !strings.ContainsAny(d, ",;"):
			return false, nil
		case strings.HasPrefix(d, "as "):
			name, rest, more := strings.Cut(strings.TrimPrefix(d, "as "), ",")
			if more && strings.TrimSpace(rest) != "" {
				return true, nil // "as Java, and …": more inputs than the other row's
			}
			other, ok := lookupRow(byLabel, strings.TrimSpace(name))
			if !ok || depth > 3 {
				return false, fmt.Errorf("row %q says %q, and no row is %q", r.label, d, name)
			}
			return applies(other, depth+1)
		}
		return true, nil
	}
	var out []Affected
	index := map[string]int{}
	for _, r := range rows {
		ids, ok := rowLanguages[r.label]
		if !ok {
			return out, fmt.Errorf("a row for %q, a language the kit has no id for (trace.rowLanguages)", r.label)
		}
		ap, err := applies(r, 0)
		if err != nil {
			return out, err
		}
		measured := strings.HasPrefix(r.version, "M")
		for _, id := range ids {
			if i, seen := index[id]; seen {
				// C++ (std) and C++ (ICU): the language is affected when either row is.
				if ap && !out[i].Applies {
					out[i] = Affected{Language: id, Row: r.label, Applies: true, Measured: measured}
				}
				continue
			}
			index[id] = len(out)
			out = append(out, Affected{Language: id, Row: r.label, Applies: ap, Measured: measured})
		}
	}
	// "Kotlin/JVM calls the JDK and behaves as the Java row unless said otherwise" (the
	// catalogue's measuring note): a table with a Java row and no Kotlin row speaks for both.
	if j, ok := index["java"]; ok {
		if _, ok := index["kotlin"]; !ok {
			k := out[j]
			k.Language = "kotlin"
			out = append(out, k)
		}
	}
	return out, nil
}

// lookupRow finds the row "as X" names: the row labelled X, or the one whose label holds X
// ("Java" in "Java/Kotlin").
func lookupRow(byLabel map[string]tableRow, name string) (tableRow, bool) {
	if r, ok := byLabel[name]; ok {
		return r, true
	}
	for label, r := range byLabel {
		for _, part := range strings.Split(label, "/") {
			if part == name {
				return r, true
			}
		}
	}
	return tableRow{}, false
}
