package main

// runHelp is the help of a run (conformance-runner -h) after the list of commands, which
// synopsis draws from the command table.
const runHelp = `
Runs the Gherkin features, the fixtures and the rapid properties of the session-reference
contract against an adapter. The report shows every failure first (input, expected and actual
answers, a diff, and the flags that rerun it), then per-part and per-area counts, the checks
not covered grouped by reason, and the verdict on the last line.

The adapter:
  --adapter 'CMD ARGS'  adapter command line, split into words: blanks separate, quotes group,
                        a backslash escapes only a blank or a quote (so C:\tools\port.exe keeps
                        its backslashes); a path to an existing file is that file, unsplit
  --adapter-arg ARG     with it, --adapter is the program itself, unsplit, and each
                        --adapter-arg (repeatable) one argument
  -- CMD ARG...         or put the adapter's program and arguments last, after --
  --dir DIR             the adapter's working directory (an existing folder)
  --timeout D           per-call timeout, e.g. 300ms or 30s (default 10s); a call past it is an
                        error, and the adapter is killed and restarted (hello, a process's
                        first answer, gets at least 10s)
  --max-timeouts N      calls that may time out in the whole run before the adapter is declared
                        unusable and the remaining checks are errors, not run (default 5)
  --max-restarts N      restarts of the adapter (after a crash, a timeout or a protocol break)
                        in the whole run before it is declared unusable, the same way
                        (default 100)
  --deadline D          bound on the whole run, e.g. 30m (default 10m); past it, the same:
                        the remaining checks are errors, not run
                        (0 for --timeout, --max-timeouts, --max-restarts, --deadline or
                        --checks is refused: leave the flag out for the default)

Selecting checks (list flags are repeatable and take comma-separated values):
  --part P[,P]          parts to run: features, fixtures, properties (default all)
  --tags EXPR           Cucumber tag expression over spec ids and areas, e.g.
                        '@uri and not (@agreement or @SR-URI-3)'; godog's older syntax
                        ('@uri && ~@agreement, @mention') is still accepted. Repeated --tags
                        must all hold
  --run REGEXP          checks whose part/name matches any --run, as the report names them,
                        e.g. 'fixtures/prepare/self-reference$' to rerun one failure
  --skip REGEXP         checks whose part/name matches any --skip are not run and are
                        reported as not covered (PARTIAL; a failure with --require-all)
  --skip-file FILE      known failures, one a line: 'CHECK  # reason', CHECK a name as the
                        report prints it or a pattern with *. They run: one that fails is
                        reported not covered with its reason; one that now passes fails the run
                        until its line is removed, so the list only shrinks (repeatable)
  --shard K/N           run the Kth of N deterministic slices; the union of all N is the whole run
  --profile P           contract release: 0.0.1-rc.1 (default) or 0.1.0-rc.8 (0.1.0 names it
                        too)

Running:
  --checks N            rapid inputs per property (default 100)
  --seed N              rapid seed; the report always prints the one used, so a failure reproduces
  --max-fail N          stop after N failures; the checks not run are reported not covered
                        (default 0: no limit)
  --require-all         a check not covered (an op the adapter does not support) fails the run

Reporting (FILE "-" is stdout, the text report then goes to stderr; every path is checked
before the run, and one file never takes two reports or replaces an input, a --skip-file or
the adapter's program or script; a device or FIFO is written through, never replaced; a file
keeps its mode):
  -v, --verbose         add the coverage matrix (per requirement) and every not-covered check
  --junit FILE          write a JUnit XML report
  --json FILE           write a JSON report
  --markdown FILE       write a Markdown summary (also appended to $GITHUB_STEP_SUMMARY when set)
  --html FILE           write the run as one self-contained HTML page (see 'report -h')
  --cucumber-messages FILE
                        write the feature run as Cucumber Messages (NDJSON) for Cucumber's tools
  --progress MODE       auto (on a terminal), always or never (default auto)
  --version             print the version (as 'conformance-runner version' does) and exit

Exit codes (the verdict's last line states the one returned):
  0    conformant: every selected check passed; or PARTIAL: every covered check passed and
       the line says how many of how many were covered (--require-all makes it 1)
  1    not conformant: a check failed, nothing was covered, or a known failure now passes
  2    usage error: bad flags, a path or program that cannot be used, a selection matching
       no check, or a report that could not be written
  3    adapter unusable (did not start, broke the protocol, crashed or hung), or some checks
       could not run for the adapter's reasons: conformance undecided
  4    incomplete: a check or part could not run for the kit's own reasons (a fixture bug);
       nothing is certified and the adapter is not blamed
  130  interrupted by SIGINT (143: SIGTERM); the reports hold what finished
Fixture bugs and adapter errors never count as 1.
`
