package mention_test

import (
	"errors"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/mention"
)

func TestFormatValue(t *testing.T) {
	for _, tt := range []struct {
		name      string
		id, label jsjson.Arg
		want      string
		typeErr   string
	}{
		{"strings", jsjson.Given("a"), jsjson.Given("L]"), mention.Format("a", "L]"), ""},
		{"undefined label is the id", jsjson.Given("a\\"), jsjson.Arg{}, mention.Format("a\\", "a\\"), ""},
		{"null label is the id", jsjson.Given("a"), jsjson.Given(nil), mention.Format("a", "a"), ""},
		{"number id, string label", jsjson.Given(5.0), jsjson.Given("five"), "@[five](dsh-session:NQ)", ""},
		{"number label", jsjson.Given("a"), jsjson.Given(1.0), "", "label.replace is not a function"},
		{"number id stands for the label", jsjson.Given(5.0), jsjson.Arg{}, "", "label.replace is not a function"},
		{"nothing", jsjson.Arg{}, jsjson.Arg{}, "", "label.replace is not a function"},
		{"undefined id", jsjson.Arg{}, jsjson.Given("x"), "", "the first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object. Received undefined"},
	} {
		got, err := mention.FormatValue(tt.id, tt.label)
		if tt.typeErr != "" {
			var te *errcode.TypeError
			if !errors.As(err, &te) || err.Error() != tt.typeErr {
				t.Errorf("%s: %q, %v; want TypeError %q", tt.name, got, err, tt.typeErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}

func TestParseValue(t *testing.T) {
	p, err := mention.ParseValue(jsjson.Given("see " + mention.Format("a", "A")))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := jsjson.Marshal(p.Value())
	if string(b) != `{"text":"see @A","references":[{"sessionId":"a","label":"A"}]}` {
		t.Errorf("Value = %s", b)
	}
	b, _ = jsjson.Marshal(mention.Parsed{}.Value())
	if string(b) != `{"text":"","references":[]}` {
		t.Errorf("empty Value = %s", b)
	}
	for _, a := range []jsjson.Arg{{}, jsjson.Given(nil), jsjson.Given(2.0)} {
		_, err := mention.ParseValue(a)
		var te *errcode.TypeError
		if !errors.As(err, &te) || err.Error() != "text.replace is not a function" {
			t.Errorf("ParseValue(%#v): %v; want a TypeError", a, err)
		}
	}
}
