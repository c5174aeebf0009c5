//go:build !unix

package pairing

// processGone cannot tell here: a lock left by a killed --write stays until a
// person removes it, as the message says.
func processGone(int) bool { return false }
