package main

const usage = `usage: verify-translation-pairing [--json] [-C dir] [path ...]
       verify-translation-pairing --write [--json] [-C dir] path ...

Checks that translated READMEs (README.md beside README.zh.md, README.<lang>.md)
are still the pair a person last confirmed consistent. A README.i18n.yaml beside
them records the git blob hash of each side as of that confirmation:

    README.md: 145ec112d6b9cce9e9eb1567c60cde41c6d6eb3c
    README.zh.md: 5d528a296ee77dc64b584d0683395cb4df67936a

Hashes equal ` + "`git hash-object --no-filters`" + ` (SHA-256 in a sha256 repository);
no git binary is needed to compute them.

With no path, every README.i18n.yaml in the repository is checked (files git
lists, tracked or not ignored; a folder walk outside git), and so is every
README.<lang>.md beside a README.md that no record names. A path names a record
or one side of a pair.

Each pair gets one line and one status:
  confirmed     no side changed since confirmation
  changed       one side changed: bring the other side along, then --write
  both-changed  more than one side changed: re-confirm them, then --write
  missing       a side named by the record does not exist
  malformed     the record is not a valid record (bad YAML, a path outside
                its folder, a bad hash)
  unreadable    the record or a side cannot be read (permissions, not a
                regular file, a symbolic link out of the repository)
  unrecorded    a README.<lang>.md beside README.md has no record

Options:
  --write    after a person confirmed the named pair consistent, record the
             current hashes: comments and key order are kept, the file is
             replaced atomically, and a record is created for a new pair
  --json     print a JSON report (schema version 1) instead of text
  -C dir     run as if started in dir
  -h, --help print this help

Exit status: 0 every pair confirmed, 1 any pair not confirmed (or a --write
failed), 2 usage error or the repository cannot be read.
`

// jsonSchema documents --json output; it is part of the help so it cannot drift
// from the program that prints it.
const jsonSchema = `--json prints one object:
  version       1
  root          absolute path of the repository (or folder) checked
  objectFormat  "sha1" or "sha256"
  discovery     "git", "walk" or "arguments": how the pairs were found
  write         whether --write was given
  pairs         one object per pair:
    status      a status above
    record      repository-relative path of the README.i18n.yaml
    sides       [{path, state, recorded?, current?, problem?}], state one of
                unchanged, changed, missing, unreadable, unrecorded
    message     the text line's explanation
    line        record line of a malformed verdict (when known)
    action      with --write: rewrote, created, unchanged or failed
    writeError  with a failed --write: why
  summary       {pairs, confirmed, notConfirmed, byStatus: {status: count}}
`
