package pairing

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

const (
	h1 = "145ec112d6b9cce9e9eb1567c60cde41c6d6eb3c"
	h2 = "5d528a296ee77dc64b584d0683395cb4df67936a"
	h3 = "0123456789abcdef0123456789abcdef01234567"
	h4 = "fedcba9876543210fedcba9876543210fedcba98"
)

func TestParseRecordMalformed(t *testing.T) {
	sha256Hash := strings.Repeat("ab", 32)
	tests := []struct {
		name, data string
		format     ObjectFormat
		line       int
		msg        string
	}{
		{"empty", "", SHA1, 0, "empty record"},
		{"only comments", "# nothing\n", SHA1, 0, "empty record"},
		{"bad YAML", "README.md: " + h1 + "\n\tREADME.zh.md: x\n", SHA1, 2, "not valid YAML"},
		{"unclosed quote", "README.md: \"" + h1 + "\n", SHA1, 2, "not valid YAML"},
		{"a list", "- README.md\n- README.zh.md\n", SHA1, 1, "expected a mapping"},
		{"a scalar", "hello\n", SHA1, 1, "expected a mapping"},
		{"one side", "README.md: " + h1 + "\n", SHA1, 1, "at least two files"},
		{"duplicate", "README.md: " + h1 + "\nREADME.md: " + h2 + "\n", SHA1, 2, "listed twice"},
		{"parent path", "README.md: " + h1 + "\n../README.zh.md: " + h2 + "\n", SHA1, 2, "outside the record's folder"},
		{"absolute path", "/etc/passwd: " + h1 + "\nREADME.md: " + h2 + "\n", SHA1, 1, "outside the record's folder"},
		{"windows path", "C:\\x.md: " + h1 + "\nREADME.md: " + h2 + "\n", SHA1, 1, "outside the record's folder"},
		{"dot dot", "..: " + h1 + "\nREADME.md: " + h2 + "\n", SHA1, 1, "outside the record's folder"},
		{"sub path", "README.md: " + h1 + "\ndocs/README.zh.md: " + h2 + "\n", SHA1, 2, "own folder only"},
		{"itself", "README.md: " + h1 + "\nREADME.i18n.yaml: " + h2 + "\n", SHA1, 2, "the record itself"},
		{"uppercase hash", "README.md: " + strings.ToUpper(h1) + "\nREADME.zh.md: " + h2 + "\n", SHA1, 1, "lowercase hexadecimal"},
		{"short hash", "README.md: abc123\nREADME.zh.md: " + h2 + "\n", SHA1, 1, "has 6 hexadecimal digits"},
		{"empty hash", "README.md:\nREADME.zh.md: " + h2 + "\n", SHA1, 1, "lowercase hexadecimal"},
		{"sha1 in sha256 repo", "README.md: " + h1 + "\nREADME.zh.md: " + h2 + "\n", SHA256, 1, "SHA-1 hash but this repository uses sha256"},
		{"sha256 in sha1 repo", "README.md: " + sha256Hash + "\nREADME.zh.md: " + sha256Hash + "\n", SHA1, 1, "SHA-256 hash"},
		{"nested mapping", "README.md:\n  hash: " + h1 + "\nREADME.zh.md: " + h2 + "\n", SHA1, 2, "a mapping"},
		{"list value", "README.md: [" + h1 + "]\nREADME.zh.md: " + h2 + "\n", SHA1, 1, "a list"},
		{"alias", "README.md: &a " + h1 + "\nREADME.zh.md: *a\n", SHA1, 1, "an anchor"},
		{"tag", "README.md: !!str " + h1 + "\nREADME.zh.md: " + h2 + "\n", SHA1, 1, "tagged"},
		{"block scalar", "README.md: |\n  " + h1 + "\nREADME.zh.md: " + h2 + "\n", SHA1, 1, "block scalar"},
		{"two documents", "README.md: " + h1 + "\nREADME.zh.md: " + h2 + "\n---\nx: y\n", SHA1, 3, "more than one YAML document"},
		{"not UTF-8", "README.md: " + h1 + "\n\xff\xfe: " + h2 + "\n", SHA1, 0, "not valid UTF-8"},
		{"control character", "\"README\\u0001.md\": " + h1 + "\nREADME.md: " + h2 + "\n", SHA1, 1, "control characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseRecord([]byte(tt.data), tt.format, false)
			var re *RecordError
			if !errors.As(err, &re) {
				t.Fatalf("err = %v, want a *RecordError", err)
			}
			if !strings.Contains(re.Msg, tt.msg) || re.Line != tt.line {
				t.Errorf("got line %d %q, want line %d containing %q", re.Line, re.Msg, tt.line, tt.msg)
			}
		})
	}
}

func TestParseRecordAccepts(t *testing.T) {
	data := "# header\n\n\"README.md\": '" + h1 + "'\nREADME.zh.md: \"" + h2 + "\" # trailing\nREADME.ja.md: " + h3 + "\n"
	rec, err := parseRecord([]byte(data), SHA1, false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range rec.Entries {
		got = append(got, e.Name+"="+e.Hash)
	}
	want := []string{"README.md=" + h1, "README.zh.md=" + h2, "README.ja.md=" + h3}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	// A hash of digits only is an integer to YAML; it is still a hash here.
	digits := "1234567890123456789012345678901234567890"
	if _, err := parseRecord([]byte("README.md: "+digits+"\nREADME.zh.md: "+h2+"\n"), SHA1, false); err != nil {
		t.Errorf("all-digit hash: %v", err)
	}
}

func TestRewriteKeepsEverythingButTheHashes(t *testing.T) {
	tests := []struct {
		name, before, after string
		hashes              map[string]string
		add                 []Entry
	}{
		{
			name:   "seed header kept",
			before: "# Bilingual-pair record\n# re-record with:\n#   pnpm run verify-translation-pairing --write x/README.md\nREADME.md: " + h1 + "\nREADME.zh.md: " + h2 + "\n",
			after:  "# Bilingual-pair record\n# re-record with:\n#   pnpm run verify-translation-pairing --write x/README.md\nREADME.md: " + h3 + "\nREADME.zh.md: " + h4 + "\n",
			hashes: map[string]string{"README.md": h3, "README.zh.md": h4},
		},
		{
			name:   "key order, quotes, comments, CRLF",
			before: "README.zh.md: '" + h2 + "' # zh\r\n\r\n# en\r\n\"README.md\": \"" + h1 + "\"\r\n",
			after:  "README.zh.md: '" + h4 + "' # zh\r\n\r\n# en\r\n\"README.md\": \"" + h3 + "\"\r\n",
			hashes: map[string]string{"README.md": h3, "README.zh.md": h4},
		},
		{
			name:   "non-ASCII before the hash, BOM, no final newline",
			before: "\ufeff\"说明.md\": " + h1 + "\nREADME.md: " + h2,
			after:  "\ufeff\"说明.md\": " + h3 + "\nREADME.md: " + h2 + "\nREADME.ja.md: " + h4 + "\n",
			hashes: map[string]string{"说明.md": h3},
			add:    []Entry{{Name: "README.ja.md", Hash: h4}},
		},
		{
			name:   "flow style rewrite",
			before: "{README.md: " + h1 + ", README.zh.md: " + h2 + "}\n",
			after:  "{README.md: " + h3 + ", README.zh.md: " + h2 + "}\n",
			hashes: map[string]string{"README.md": h3},
		},
		{
			name:   "indented mapping gets indented additions",
			before: "  README.md: " + h1 + "\n  README.zh.md: " + h2 + "\n",
			after:  "  README.md: " + h1 + "\n  README.zh.md: " + h2 + "\n  README.ko.md: " + h3 + "\n",
			add:    []Entry{{Name: "README.ko.md", Hash: h3}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := parseRecord([]byte(tt.before), SHA1, false)
			if err != nil {
				t.Fatal(err)
			}
			got, err := rec.Rewrite(tt.hashes, tt.add, SHA1)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.after, string(got)); diff != "" {
				t.Errorf("rewrite (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("flow style cannot grow", func(t *testing.T) {
		rec, _ := parseRecord([]byte("{README.md: "+h1+", README.zh.md: "+h2+"}\n"), SHA1, false)
		if _, err := rec.Rewrite(nil, []Entry{{Name: "README.ja.md", Hash: h3}}, SHA1); err == nil {
			t.Error("want an error adding to a flow-style record")
		}
	})
	t.Run("a hash that does not fit the format is refused", func(t *testing.T) {
		rec, _ := parseRecord([]byte("README.md: "+h1+"\nREADME.zh.md: "+h2+"\n"), SHA1, false)
		if _, err := rec.Rewrite(map[string]string{"README.md": "zz"}, nil, SHA1); err == nil {
			t.Error("want an error: the result would not read back")
		}
	})
}

// genRecord draws a valid record: comment lines, blank lines, quoting styles and
// trailing comments around two to four sides.
func genRecord(t *rapid.T) (string, []string) {
	names := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"README.md", "README.zh.md", "README.ja.md", "README.pt-BR.md", "NOTES.md", "读我.md"}), 2, 4, rapid.ID[string]).Draw(t, "names")
	nl := rapid.SampledFrom([]string{"\n", "\r\n"}).Draw(t, "newline")
	var b strings.Builder
	for i := range rapid.IntRange(0, 3).Draw(t, "header lines") {
		fmt.Fprintf(&b, "# comment %d: %s%s", i, rapid.SampledFrom([]string{"", "中文", "a: b", "'q'"}).Draw(t, "comment"), nl)
	}
	for i, n := range names {
		if rapid.Bool().Draw(t, "blank line") {
			b.WriteString(nl)
		}
		h := fmt.Sprintf("%040x", i+1)
		key := n
		if rapid.Bool().Draw(t, "quote key") {
			key = `"` + n + `"`
		}
		q := rapid.SampledFrom([]string{"", "'", `"`}).Draw(t, "quote")
		fmt.Fprintf(&b, "%s: %s%s%s", key, q, h, q)
		if rapid.Bool().Draw(t, "trailing comment") {
			b.WriteString(" # note")
		}
		b.WriteString(nl)
	}
	return b.String(), names
}

// Rewriting then parsing gives the new hashes in the old order, and the bytes
// outside the hashes stay the same.
func TestRewriteRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		data, names := genRecord(t)
		rec, err := parseRecord([]byte(data), SHA1, false)
		if err != nil {
			t.Fatalf("generated record does not parse: %v\n%s", err, data)
		}
		hashes := map[string]string{}
		for _, n := range names {
			if rapid.Bool().Draw(t, "change "+n) {
				hashes[n] = fmt.Sprintf("%040x", rapid.Uint64().Draw(t, "new hash"))
			}
		}
		out, err := rec.Rewrite(hashes, nil, SHA1)
		if err != nil {
			t.Fatal(err)
		}
		back, err := parseRecord(out, SHA1, false)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range back.Entries {
			want := rec.Entries[i].Hash
			if h, ok := hashes[e.Name]; ok {
				want = h
			}
			if e.Name != names[i] || e.Hash != want {
				t.Fatalf("entry %d = %s %s, want %s %s", i, e.Name, e.Hash, names[i], want)
			}
		}
		// Same length hashes: the text outside them is untouched.
		mask := func(s string, r *Record) string {
			for _, e := range r.Entries {
				s = strings.Replace(s, e.Hash, strings.Repeat("#", len(e.Hash)), 1)
			}
			return s
		}
		if mask(data, rec) != mask(string(out), back) {
			t.Fatalf("text outside the hashes changed:\n%q\n%q", data, out)
		}
	})
}

// parseRecord never panics, whatever it is given.
func FuzzParseRecord(f *testing.F) {
	f.Add([]byte("README.md: " + h1 + "\nREADME.zh.md: " + h2 + "\n"))
	f.Add([]byte("{a: b}"))
	f.Add([]byte("&a x: *a"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := parseRecord(data, SHA1, false)
		if err == nil {
			if _, err := rec.Rewrite(nil, nil, SHA1); err != nil {
				t.Errorf("a parsed record does not rewrite as itself: %v", err)
			}
		}
	})
}

// A record's lines are the lines YAML counts, whatever breaks them: CRLF, a lone CR, LF, NEL,
// LS and PS. Rewrite finds each hash on the line the parser names and leaves the breaks be.
func TestRewriteAcrossLineBreaks(t *testing.T) {
	for _, br := range []string{"\r\n", "\r", "\n", "\u0085", "\u2028", "\u2029"} {
		data := "README.md: " + h1 + br + "README.zh.md: " + h2 + br
		rec, err := parseRecord([]byte(data), SHA1, false)
		if err != nil {
			t.Fatalf("%q: %v", br, err)
		}
		out, err := rec.Rewrite(map[string]string{"README.zh.md": h1}, nil, SHA1)
		if err != nil {
			t.Fatalf("%q: %v", br, err)
		}
		if want := "README.md: " + h1 + br + "README.zh.md: " + h1 + br; string(out) != want {
			t.Errorf("%q: rewrote\n%q, want\n%q", br, out, want)
		}
	}
}
