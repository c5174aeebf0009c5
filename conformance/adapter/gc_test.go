package adapter_test

// The tests here move large lines and worlds through pipes: a less frequent GC (see testgc)
// saves CPU.
import _ "github.com/sessionref-kit/sessionref-kit/internal/testgc"
