package conformance

import (
	"io/fs"
	"path"
	"sort"

	"github.com/sessionref-kit/sessionref-kit/conformance/properties"
)

// Shard units, in a fixed order: every feature file, every fixture file, every property.
// Unit i belongs to shard i mod N, so shards stay even and their union is the whole run.

// dataFiles lists the files of fsys with extension ext, in path order.
func dataFiles(fsys fs.FS, ext string) []string {
	var out []string
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path.Ext(p) == ext {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// shardUnits returns the feature files, fixture files and property names of this shard.
func (r Runner) shardUnits() (featureFiles, fixtureFiles, props []string) {
	i := 0
	next := func() bool { ok := r.sel.InShard(i); i++; return ok }
	for _, f := range dataFiles(r.Features, ".feature") {
		if next() {
			featureFiles = append(featureFiles, f)
		}
	}
	for _, f := range dataFiles(r.Fixtures, ".yaml") {
		if next() {
			fixtureFiles = append(fixtureFiles, f)
		}
	}
	props = []string{}
	for _, p := range properties.All() {
		if next() {
			props = append(props, p.Name)
		}
	}
	return featureFiles, fixtureFiles, props
}
