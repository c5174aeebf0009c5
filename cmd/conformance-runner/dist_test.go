package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
)

// The distribution files cannot all run here (no docker engine, no GitHub runner); these
// tests check what can drift silently: versions, paths and names they share with the code.
// .ci/run builds the goreleaser snapshot and runs the action's scripts on it.

const repoRoot = "../.."

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDockerfile checks the image's Go and Node versions against go.mod and the adapter's
// engines, and that every file it copies from the context exists.
func TestDockerfile(t *testing.T) {
	df := readRepoFile(t, "Dockerfile")
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(readRepoFile(t, "go.mod"))
	if goVersion == nil || !strings.Contains(df, "FROM golang:"+goVersion[1]+"-") {
		t.Errorf("Dockerfile does not build with go.mod's Go %v", goVersion)
	}
	engines := regexp.MustCompile(`"node": ">=(\d+)"`).FindStringSubmatch(readRepoFile(t, "conformance/adapters/node-upstream/package.json"))
	if engines == nil || !strings.Contains(df, "FROM node:"+engines[1]+"-") {
		t.Errorf("Dockerfile's Node is not the adapter's engines.node %v", engines)
	}
	for _, m := range regexp.MustCompile(`(?m)^COPY ([^-\n][^\n]*)$`).FindAllStringSubmatch(df, -1) {
		fields := strings.Fields(m[1])
		for _, src := range fields[:len(fields)-1] {
			if _, err := os.Stat(filepath.Join(repoRoot, src)); err != nil {
				t.Errorf("COPY %s: %v", src, err)
			}
		}
	}
	if !strings.Contains(df, "./cmd/conformance-runner") || !strings.Contains(df, `ENTRYPOINT ["conformance-runner"]`) {
		t.Error("Dockerfile does not build and run the runner")
	}
	if !strings.Contains(readRepoFile(t, ".dockerignore"), "node_modules") {
		t.Error(".dockerignore lets a local node_modules into the image")
	}
}

type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			Name string            `yaml:"name"`
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			Env  map[string]string `yaml:"env"`
			With map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// TestActionYAML checks that the composite action pins what it uses, runs scripts that
// exist, and installs this release by default.
func TestActionYAML(t *testing.T) {
	var a actionFile
	if err := yaml.Unmarshal([]byte(readRepoFile(t, "action.yml")), &a); err != nil {
		t.Fatal(err)
	}
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using %q", a.Runs.Using)
	}
	if v := a.Inputs["version"].Default; v != adapter.KitVersion {
		t.Errorf("the action installs %q by default, the kit is %s", v, adapter.KitVersion)
	}
	var uploads bool
	for _, s := range a.Runs.Steps {
		if s.Uses != "" {
			if !regexp.MustCompile(`@(v\d+|[0-9a-f]{40})$`).MatchString(s.Uses) {
				t.Errorf("step %q uses %q, not pinned", s.Name, s.Uses)
			}
			if strings.HasPrefix(s.Uses, "actions/upload-artifact@") {
				uploads = true
				// One name per job (a matrix uploads once per job) and every report.
				if !strings.Contains(s.With["name"], "steps.certify.outputs.artifact-name") || !strings.Contains(s.With["path"], "steps.certify.outputs.paths") {
					t.Errorf("the upload step's name %q and path %q are not certify.sh's", s.With["name"], s.With["path"])
				}
			}
		}
		for _, m := range regexp.MustCompile(`\$GITHUB_ACTION_PATH/(\S+?)"`).FindAllStringSubmatch(s.Run, -1) {
			if _, err := os.Stat(filepath.Join(repoRoot, m[1])); err != nil {
				t.Errorf("step %q runs %s: %v", s.Name, m[1], err)
			}
		}
	}
	if !uploads {
		t.Error("the action does not upload the JUnit report")
	}
}

// TestCertifyScript runs action/certify.sh as two jobs of a --shard matrix: each writes the
// JUnit, JSON and HTML reports and names an artifact of its own.
func TestCertifyScript(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	script, err := filepath.Abs(filepath.Join(repoRoot, "action", "certify.sh"))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	// The script is under test, not the run: each shard runs a slice of the uri-* fixtures.
	for _, shard := range []string{"1/2", "2/2"} {
		dir := t.TempDir()
		out := filepath.Join(dir, "github-output")
		cmd := exec.Command("bash", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "RUNNER_BIN="+tool(t, "conformance-runner"), "GITHUB_OUTPUT="+out, "GITHUB_JOB=certify",
			"GITHUB_STEP_SUMMARY=", "ARGS="+strings.Join([]string{"--shard", shard, "--part", "fixtures", "--run", "uri-"}, "\n"))
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("certify.sh: %v\n%s", err, b)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		o := string(b)
		name := regexp.MustCompile(`(?m)^artifact-name=(.*)$`).FindStringSubmatch(o)
		if name == nil || !strings.HasPrefix(name[1], "conformance-certify-shard-"+strings.Replace(shard, "/", "-of-", 1)+"-") || names[name[1]] {
			t.Errorf("shard %s: artifact name %q (taken: %v)", shard, name, names)
		} else {
			names[name[1]] = true
		}
		for _, f := range []string{"conformance-junit.xml", "conformance-report.json", "conformance-report.html"} {
			p := filepath.Join(dir, f)
			if _, err := os.Stat(p); err != nil || !strings.Contains(o, "\n"+p+"\n") {
				t.Errorf("shard %s: %s not written or not in the paths to upload: %v\n%s", shard, f, err, o)
			}
		}
		if !strings.Contains(o, "exit-code=0\n") {
			t.Errorf("shard %s: %s", shard, o)
		}
	}
}

// TestGoreleaser checks the release matrix and that the archive names are those the
// README's Install section and action/install.sh download.
func TestGoreleaser(t *testing.T) {
	var g struct {
		Builds []struct {
			Main    string   `yaml:"main"`
			Goos    []string `yaml:"goos"`
			Goarch  []string `yaml:"goarch"`
			Ldflags []string `yaml:"ldflags"`
		} `yaml:"builds"`
		Archives []struct {
			NameTemplate string `yaml:"name_template"`
		} `yaml:"archives"`
		Checksum struct {
			NameTemplate string `yaml:"name_template"`
		} `yaml:"checksum"`
	}
	if err := yaml.Unmarshal([]byte(readRepoFile(t, ".goreleaser.yaml")), &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Builds) == 0 || g.Builds[0].Main != "./cmd/conformance-runner" {
		t.Fatalf("builds: %+v", g.Builds)
	}
	b := g.Builds[0]
	for _, os := range []string{"linux", "darwin", "windows"} {
		if !slices.Contains(b.Goos, os) {
			t.Errorf("goos lacks %s", os)
		}
	}
	for _, arch := range []string{"amd64", "arm64"} {
		if !slices.Contains(b.Goarch, arch) {
			t.Errorf("goarch lacks %s", arch)
		}
	}
	ld := strings.Join(b.Ldflags, " ")
	for _, v := range []string{"main.version=", "main.commit=", "main.date="} {
		if !strings.Contains(ld, v) {
			t.Errorf("ldflags do not set %s", v)
		}
	}
	_, _, _ = version, commit, date // the variables the ldflags set
	if len(g.Archives) == 0 || g.Archives[0].NameTemplate != "{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}" || g.Checksum.NameTemplate != "checksums.txt" {
		t.Errorf("archive or checksum names changed: %+v %+v", g.Archives, g.Checksum)
	}
	for _, f := range []string{"action/install.sh", "README.md", "README.zh.md"} {
		if !strings.Contains(readRepoFile(t, f), "conformance-runner_${VERSION}_${") {
			t.Errorf("%s does not download conformance-runner_${VERSION}_${OS}_${ARCH}", f)
		}
	}
}
