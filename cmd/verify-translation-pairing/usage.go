package main

const usage = `usage: verify-translation-pairing [--json] [--diff] [-C dir] [path ...]
       verify-translation-pairing --write [--json] [-C dir] path ...
       verify-translation-pairing --pre-commit [file ...]

Checks that translated documents are still the pairs a person last confirmed
consistent. A record holds the git blob hash of each side as of that
confirmation. By default the pairs are README.md beside README.<lang>.md, and the
record is the README.i18n.yaml beside them:

    README.md: 145ec112d6b9cce9e9eb1567c60cde41c6d6eb3c
    README.zh.md: 5d528a296ee77dc64b584d0683395cb4df67936a

A .translation-pairing.yaml at the repository root declares more pairs, any
language tags, several documents per record:

    sets:
      - name: guide                           # optional
        record: docs/translations.i18n.yaml   # keys: paths below its folder
        languages:                            # two or more: tag -> pattern
          en: docs/en/**/*.md                 # mirrored trees ...
          zh-CN: docs/zh-cn/**/*.md
        exclude: [docs/en/drafts/**]
      - record: translations.i18n.yaml
        languages: {en: "**/*.md", zh: "**/*.zh.md"}   # ... or suffix pairs

Files whose wildcards match the same text are one document (docs/en/a/b.md and
docs/zh-cn/a/b.md); a file matching two patterns belongs to the one with more
literal characters (guide.zh.md is zh); a document in one language only is
left alone until it has a translation.

Hashes are git's: one ` + "`git hash-object --stdin-paths`" + ` for every side, so
the blob is the one ` + "`git add`" + ` stores (filters, end-of-line conversion,
attributes; SHA-256 in a sha256 repository). git must be on the PATH; each git
call is bounded in time (30 s) and output, and a failure quotes git.

For a changed side, the confirmed blob is read with ` + "`git cat-file --batch`" + ` and
what changed is ` + "`git diff --no-index --numstat`" + ` against the side as git would
store it (20 lines a side in text, --diff for all, --json up to 64 KiB).

With no path, every pair in the repository is checked (files git lists, tracked
or not ignored; a folder walk outside git). A path names a record or one side
of a pair, read as it is in the working tree (even one git ignores). Paths in
text output are quoted as git quotes them (control characters, escape
sequences and bytes that are not UTF-8 are escaped).

Each pair gets one line and one status:
  confirmed     no side changed since confirmation
  changed       one side changed: bring the other side along, then --write
  both-changed  more than one side changed: re-confirm them, then --write
  missing       a side named by the record does not exist
  malformed     the record or the config is not valid (bad YAML, a path
                outside its folder, a bad hash, an unknown key)
  unreadable    the record, the config or a side cannot be read (permissions,
                not a regular file, a symbolic link out of the repository;
                a record or config that is a link to nothing)
  unrecorded    a translation has no record, or is not named in it

Options:
  --write       after a person confirmed the named pair consistent, record the
                current hashes: comments and key order are kept, the file is
                replaced atomically and read back, and a record is created for
                a new pair; names a record cannot hold (not UTF-8) are refused
  --json        print a JSON report (schema version 1) instead of text
  --diff        show the whole diff of each changed side in text output
  --pre-commit  as a pre-commit hook: the paths are the files pre-commit passes;
                if none can change a verdict, say nothing, else check every
                pair, offering the fix as a pre-commit command
  -C dir        run as if started in dir
  -h, --help    print this help

Temporary files an interrupted --write left beside a record are removed (and
named) by the next run.

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
    record      repository-relative path of the record
    set         the configured set's name, for a document of a set
    sides       [{path, pathQuoted?, state, recorded?, current?, problem?, conversion?,
                changes?}], state one of unchanged, changed, missing,
                unreadable, unrecorded; pathQuoted (git-style quoting)
                only for a path that is not valid UTF-8;
                conversion {raw, attributes?} when git's blob differs from
                the file's bytes (raw: their hash; attributes: git check-attr);
                changes (a changed side) {source: "git" or "unavailable",
                reason?, added?, removed?, diff?, truncated?}
    message     the text line's explanation
    line        record line of a malformed verdict (when known)
    action      with --write: rewrote, created, unchanged or failed
    writeError  with a failed --write: why
  summary       {pairs, confirmed, notConfirmed, byStatus: {status: count}}
  removedTemps  temporary files of an interrupted --write this run removed
`
