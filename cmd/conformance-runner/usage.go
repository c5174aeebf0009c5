package main

const usage = `usage: conformance-runner [flags]            certify the embedded reference (in-process)
       conformance-runner --adapter 'CMD ARGS'   certify an implementation over the adapter protocol
       conformance-runner adapter [--profile P] [--max-request-bytes N]
                                                 serve the embedded reference on stdin/stdout
       conformance-runner diff --adapter 'CMD'   compare with the reference on generated requests (diff -h)
       conformance-runner bench --adapter 'CMD'  time an implementation against the reference (bench -h)
       conformance-runner list [flags]           list the checks a selection makes, without running them

Runs the Gherkin features, the fixtures and the rapid properties of the session-reference
contract against an adapter and reports per-part and per-area pass, fail and not-covered
counts, with every failure's input, expected and actual answers as a diff (-want +got).

Flags:
  --adapter 'CMD ARGS'  adapter command line, split like a shell does (quotes, backslashes)
  --dir DIR             the adapter's working directory
  --timeout D           per-call timeout, e.g. 300ms or 30s (default 10s); a call past it is an
                        error, and the adapter is killed and restarted
  --max-timeouts N      calls that may time out in the whole run before the adapter is declared
                        unusable and the remaining checks are errors, not run (default 5)
  --deadline D          bound on the whole run, e.g. 30m (default 10m); past it, the same
  --part P[,P]          parts to run: features, fixtures, properties (default all)
  --tags EXPR           godog tag expression over spec ids and areas, e.g. '@uri && ~@agreement'
  --run REGEXP          checks whose part/name matches, as the report names them, e.g.
                        'fixtures/prepare/self-reference$' to rerun one failure
  --skip REGEXP         checks whose part/name matches are not run and are reported as not
                        covered (PARTIAL; a failure with --require-all): known failures
  --checks N            rapid inputs per property (default 100)
  --seed N              rapid seed; the report always prints the one used, so a failure reproduces
  --shard K/N           run the Kth of N deterministic slices; the union of all N is the whole run
  --require-all         a check not covered (an op the adapter does not support) fails the run
  --profile P           contract release: 0.0.1-rc.1 (default) or 0.1.0-rc.8
  --junit FILE          write a JUnit XML report
  --json FILE           write a JSON report
  --markdown FILE       write a Markdown summary (also appended to $GITHUB_STEP_SUMMARY when set)
  --progress MODE       auto (on a terminal), always or never (default auto)

Exit codes: 0 conformant, 1 not conformant (a check failed, or nothing was covered),
2 usage error (or a selection matching no check), 3 adapter unusable (did not start,
broke the protocol, crashed or hung). Fixture bugs and adapter errors never count as 1.
`
