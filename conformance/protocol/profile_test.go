package protocol_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

func TestParseProfile(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want protocol.Profile
	}{
		{"", protocol.Profile001},
		{"  ", protocol.Profile001},
		{"0.0.1-rc.1", protocol.Profile001},
		{"0.0.1", protocol.Profile001},
		{"0.1.0-rc.8", protocol.Profile010},
		{"0.1.0", protocol.Profile010},
		{"@profile-0.1.0", protocol.Profile010},
		{"profile-0.0.1", protocol.Profile001},
		{"0.1.0-rc.8 ", protocol.Profile010}, // blanks around a flag's value are forgiven
	} {
		if got, err := protocol.ParseProfile(tt.in); err != nil || got != tt.want {
			t.Errorf("ParseProfile(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"9.9", "0.1.0-rc.7", "0.1", "@", "profile-", "latest"} {
		_, err := protocol.ParseProfile(bad)
		if err == nil || !strings.Contains(err.Error(), "0.0.1-rc.1 (default) or 0.1.0-rc.8") {
			t.Errorf("ParseProfile(%q) = %v, want an error listing the releases", bad, err)
		}
	}
}

// TestProfileRoundTrip: every release parses from its own name, its line and its tag.
func TestProfileRoundTrip(t *testing.T) {
	for _, p := range protocol.Profiles {
		for _, s := range []string{string(p), p.Line(), p.Tag()} {
			if got, err := protocol.ParseProfile(s); err != nil || got != p {
				t.Errorf("ParseProfile(%q) = %q, %v; want %q", s, got, err, p)
			}
		}
		if !p.Valid() {
			t.Errorf("%q is not Valid", p)
		}
	}
	if protocol.Profile("0.1.0").Valid() || protocol.Profile("").Or() != protocol.DefaultProfile {
		t.Error("an alias is not a release; the zero value is the default")
	}
}

func ExampleParseProfile() {
	for _, s := range []string{"", "0.1.0", "@profile-0.1.0", "2.0"} {
		p, err := protocol.ParseProfile(s)
		fmt.Printf("%q: %s %v\n", s, p, err)
	}
	// Output:
	// "": 0.0.1-rc.1 <nil>
	// "0.1.0": 0.1.0-rc.8 <nil>
	// "@profile-0.1.0": 0.1.0-rc.8 <nil>
	// "2.0":  unknown profile "2.0" (want 0.0.1-rc.1 (default) or 0.1.0-rc.8)
}
