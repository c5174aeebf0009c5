package cases

import "io/fs"

// LoadCompiled reads the compiled form of fsys alone, where Load would fall back to the YAML.
func LoadCompiled(fsys fs.FS) ([]File, bool) {
	h, err := Hash(fsys)
	if err != nil {
		return nil, false
	}
	return loadCompiled(fsys, h)
}

// EmbeddedReads returns how many times this process has loaded an embedded fixture folder,
// parsed its YAML and hashed it.
func EmbeddedReads() (loads, yamlParses, hashes int64) {
	return embedded.loads.Load(), embedded.yamlParses.Load(), embedded.hashes.Load()
}
