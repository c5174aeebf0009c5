package pairing

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// .ci/run passes -writers.rounds=100; go test ./... runs a few rounds.
var writerRounds = flag.Int("writers.rounds", 4, "rounds of two concurrent --write runs in TestConcurrentWritersLoseNoUpdate")

// Two --write runs on one record at once, many times: each re-records its own
// document (a set record with two documents, and a README record one run
// re-records while the other adds a translation). Without the lock, the second
// writer rewrites the record it read before the first wrote, and one update is
// lost; with it, every hash of every round is in the record afterwards, and each
// run's Wrote names exactly its own sides.
func TestConcurrentWritersLoseNoUpdate(t *testing.T) {
	root := gitRepo(t, SHA1)
	writeFile(t, filepath.Join(root, ConfigName), "sets:\n  - record: docs/t.i18n.yaml\n    languages: {en: \"docs/en/*.md\", zh: \"docs/zh/*.md\"}\n")
	docs := []string{"docs/en/a.md", "docs/zh/a.md", "docs/en/b.md", "docs/zh/b.md"}
	// write edits the sides a round re-records: the set's in even rounds, the
	// README pair's in odd ones.
	write := func(round int) {
		if round%2 == 0 {
			for _, d := range docs {
				writeFile(t, filepath.Join(root, d), fmt.Sprintf("%s round %d\n", d, round))
			}
		}
		if round%2 == 1 || round == 0 {
			writeFile(t, filepath.Join(root, BaseName), fmt.Sprintf("readme %d\n", round))
			writeFile(t, filepath.Join(root, "README.zh.md"), fmt.Sprintf("自述 %d\n", round))
		}
	}
	run := func(paths ...string) (*Report, error) {
		repo, err := FindRepo(root)
		if err != nil {
			return nil, err
		}
		return repo.Run(Options{Dir: root, Paths: paths, Write: true})
	}
	write(0)
	for _, p := range [][]string{{"docs/en/a.md"}, {"docs/en/b.md"}, {"README.md"}} {
		if rep, err := run(p...); err != nil || !rep.OK() {
			t.Fatalf("setup %v: %v %+v", p, err, rep)
		}
	}
	start := time.Now()
	lost := 0
	for round := 1; round <= *writerRounds; round++ {
		write(round)
		// The README side: one run re-records the pair, the other adds a new
		// translation, from round 2 on (the first round adds it).
		const ja = "README.ja.md"
		if round%2 == 1 {
			writeFile(t, filepath.Join(root, ja), fmt.Sprintf("日本語 %d\n", round))
			rec := readFile(t, filepath.Join(root, RecordName))
			var keep []string
			for _, l := range strings.SplitAfter(rec, "\n") {
				if !strings.HasPrefix(l, ja+":") {
					keep = append(keep, l)
				}
			}
			writeFile(t, filepath.Join(root, RecordName), strings.Join(keep, ""))
		}
		jobs := [][]string{{"docs/en/a.md"}, {"docs/zh/b.md"}}
		wants := [][]string{{"docs/en/a.md", "docs/zh/a.md"}, {"docs/en/b.md", "docs/zh/b.md"}}
		if round%2 == 1 {
			jobs = [][]string{{"README.md"}, {ja}}
			wants = [][]string{{"README.md", "README.zh.md"}, {ja}}
		}
		var wg sync.WaitGroup
		reps := make([]*Report, 2)
		errs := make([]error, 2)
		for i, job := range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				reps[i], errs[i] = run(job...)
			}()
		}
		wg.Wait()
		for i := range jobs {
			// A run's own pair may still wait for the other run's sides: what
			// counts is that it wrote, and the check after both.
			if errs[i] != nil || len(reps[i].Pairs) == 0 {
				t.Fatalf("round %d, --write %v: %v %+v", round, jobs[i], errs[i], reps[i])
			}
			for _, p := range reps[i].Pairs {
				if p.Action != "rewrote" {
					t.Fatalf("round %d, --write %v: %s %s: %s", round, jobs[i], p.Status, p.Action, p.WriteError)
				}
			}
		}
		// Every side's hash is in the records: the set's, and the README's.
		repo, err := FindRepo(root)
		if err != nil {
			t.Fatal(err)
		}
		check, err := repo.Run(Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !check.OK() {
			lost++
			for _, p := range check.Pairs {
				if !p.OK() {
					t.Errorf("round %d: an update was lost: %s %s", round, p.Status, p.Message)
				}
			}
			if lost > 3 {
				t.FailNow()
			}
		}
		for i, job := range jobs {
			var got []string
			for _, p := range reps[i].Pairs {
				for _, w := range p.Wrote {
					got = append(got, w.Path)
				}
			}
			if strings.Join(got, " ") != strings.Join(wants[i], " ") {
				t.Errorf("round %d: --write %v says it wrote %v, want %v", round, job, got, wants[i])
			}
		}
	}
	t.Logf("%d rounds of two concurrent writers, %d updates lost, %v a round", *writerRounds, lost, time.Since(start)/time.Duration(max(*writerRounds, 1)))
}

// A lock held by another --write is waited on, then its holder named; a lock
// file a killed --write left (its system lock gone with it) is taken at once and
// removed on release.
func TestLockHolderNamedOrTakenOver(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, RecordName)
	unlock, err := lockRecord(rec, 0)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = lockRecord(rec, 200*time.Millisecond)
	var le *LockError
	if !errors.As(err, &le) || le.PID != os.Getpid() || time.Since(start) < 200*time.Millisecond {
		t.Fatalf("got %v after %v, want a LockError naming pid %d after the wait", err, time.Since(start), os.Getpid())
	}
	if !strings.Contains(err.Error(), "process "+strconv.Itoa(os.Getpid())) || !strings.Contains(err.Error(), "README.i18n.yaml.lock") {
		t.Errorf("message %q names neither the holder nor the lock", err)
	}
	unlock()
	writeFile(t, rec+".lock", "999999999\n")
	start = time.Now()
	unlock, err = lockRecord(rec, time.Second)
	if err != nil || time.Since(start) > 100*time.Millisecond {
		t.Fatalf("a lock file nobody holds was not taken at once: %v after %v", err, time.Since(start))
	}
	if got := readFile(t, rec+".lock"); got != strconv.Itoa(os.Getpid())+"\n" {
		t.Errorf("lock holds %q", got)
	}
	unlock()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}
