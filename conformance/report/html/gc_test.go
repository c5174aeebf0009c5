package html_test

// The tests here make the reports of whole runs: a less frequent GC (see testgc) saves CPU.
import _ "github.com/sessionref-kit/sessionref-kit/internal/testgc"
