// Command verify-translation-pairing checks that translated READMEs are still the
// pair a person last confirmed consistent, and re-records a pair once they are.
//
// See usage.go, or run it with --help, for what it does.
package main

import "os"

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
