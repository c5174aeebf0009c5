// Package pairing checks that translated documents are still the pairs a person
// last confirmed consistent, by comparing git blob hashes with those recorded in
// a record, and re-records a pair once confirmed.
//
// By default the pairs are README.md beside README.<lang>.md, and the record is
// the README.i18n.yaml beside them: a flat YAML mapping from file names in its
// own folder to hashes:
//
//	# comments are kept when the record is rewritten
//	README.md: 145ec112d6b9cce9e9eb1567c60cde41c6d6eb3c
//	README.zh.md: 5d528a296ee77dc64b584d0683395cb4df67936a
//
// A repository-level config (ConfigName) declares more: sets of documents whose
// language versions match patterns with the same wildcards (mirrored trees,
// same-folder suffixes), any language tags, one record per set holding several
// documents, its keys slash-separated paths below its own folder.
//
// Hashes are what git says: `git hash-object --stdin-paths` for every side at
// once, so git's own filters, attributes (its limits included) and object
// format apply by construction. For a changed side, the confirmed blob comes
// from `git cat-file --batch` and what changed from `git diff --no-index
// --numstat`. Each git call is bounded in time (GitTimeout) and output, git
// runs in a process group of its own that a timeout kills whole (a filter git
// started, and its children, end with it; Ctrl-C is forwarded to the group), and a
// failure is a *GitError in git's own words. Outside a repository, git hashes
// without one (SHA-1), and no diff is possible.
//
// Every pair gets exactly one Status; Repo.Run returns them in a Report, the
// document the command's --json prints. Nothing outside the repository is read or
// written: record keys never lead out of the record's folder, symbolic links
// leading out are refused, only regular files are opened (a named pipe cannot
// block a run), and records are replaced atomically (WriteFileAtomic), read back,
// and never left half-written: a --write stopped by any signal leaves the old
// record or the new one whole, and at most a temporary file and a released lock
// file, which the next run removes and names. QuotePath quotes paths for
// terminals as git does.
package pairing
