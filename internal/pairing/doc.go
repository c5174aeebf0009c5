// Package pairing checks that translated READMEs are still the pair a person last
// confirmed consistent, by comparing git blob hashes (`git hash-object`) with those
// recorded in a README.i18n.yaml beside them, and re-records a pair once confirmed.
//
// A record is a flat YAML mapping from file names in its own folder to hashes:
//
//	# comments are kept when the record is rewritten
//	README.md: 145ec112d6b9cce9e9eb1567c60cde41c6d6eb3c
//	README.zh.md: 5d528a296ee77dc64b584d0683395cb4df67936a
//
// Hashes are SHA-1, or SHA-256 when the repository's extensions.objectformat says
// so; they are computed from the file's bytes without running git, and equal
// `git hash-object --no-filters` (which is `git hash-object` unless the repository
// sets clean filters or end-of-line conversion). Every pair gets exactly one Status;
// Repo.Run returns them in a Report, the document the command's --json prints.
//
// Nothing outside the repository is read or written: record keys must be plain
// names beside the record, symbolic links leading out are refused, and records are
// replaced atomically (WriteFileAtomic), so none is ever left half-written.
package pairing
