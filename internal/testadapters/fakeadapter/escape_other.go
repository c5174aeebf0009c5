//go:build !unix

package fakeadapter

import "errors"

func startEscaped(self string) (int, error) { return 0, errors.New("no sessions here") }

func mkfifo(path string) error { return errors.New("no FIFOs here") }
