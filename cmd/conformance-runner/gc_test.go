package main

// The tests here run many whole runs: a less frequent GC (see testgc) saves CPU.
import _ "github.com/sessionref-kit/sessionref-kit/internal/testgc"
