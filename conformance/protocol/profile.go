package protocol

import (
	"fmt"
	"strings"
)

// Profile is a contract release the kit certifies: a published version of
// @deepseek-ai/dsh-session-reference. The zero value is not a release; ParseProfile reads
// every spelling a user may give (a flag, a fixture's profiles, a feature's tag) into one.
type Profile string

// The releases the kit certifies.
const (
	// Profile001 is the default release, the seed of the spec.
	Profile001 Profile = Spec
	// Profile010 places the context message after the direct one in host.send.
	Profile010 Profile = "0.1.0-rc.8"
)

// Profiles lists every release, the default first.
var Profiles = []Profile{Profile001, Profile010}

// DefaultProfile is the release certified when none is named.
const DefaultProfile = Profile001

// ParseProfile returns the release s names: "" is DefaultProfile; a release's line without
// its pre-release suffix ("0.1.0") names the one release of that line the kit certifies, and
// so does its feature tag ("@profile-0.1.0", "profile-0.1.0"). Any other value is an error
// that lists the valid ones.
func ParseProfile(s string) (Profile, error) {
	t := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(s), "@"), "profile-")
	if t == "" && strings.TrimSpace(s) == "" {
		return DefaultProfile, nil
	}
	for _, p := range Profiles {
		if t == string(p) || t == p.Line() {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown profile %q (want %s)", s, ProfileNames())
}

// ProfileNames lists the releases for a message: "0.0.1-rc.1 (default) or 0.1.0-rc.8".
func ProfileNames() string {
	names := make([]string, len(Profiles))
	for i, p := range Profiles {
		names[i] = string(p)
		if p == DefaultProfile {
			names[i] += " (default)"
		}
	}
	return strings.Join(names, " or ")
}

// Or returns p, or DefaultProfile when p is the zero value.
func (p Profile) Or() Profile {
	if p == "" {
		return DefaultProfile
	}
	return p
}

// String returns the release's version.
func (p Profile) String() string { return string(p) }

// Line returns the release's version without its pre-release suffix: "0.1.0" for
// "0.1.0-rc.8".
func (p Profile) Line() string {
	v, _, _ := strings.Cut(string(p), "-")
	return v
}

// Tag returns the feature tag of a scenario that holds in this release only:
// "@profile-0.1.0".
func (p Profile) Tag() string { return "@profile-" + p.Line() }

// Valid reports whether p is one of Profiles.
func (p Profile) Valid() bool {
	for _, q := range Profiles {
		if p == q {
			return true
		}
	}
	return false
}
