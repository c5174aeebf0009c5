// Package nodejs runs a Node.js script as a long-lived helper process for differential tests:
// the Go side sends one JSON request per line on the script's stdin and reads one JSON reply
// per line from its stdout, so a test can check thousands of cases against the real JavaScript
// engine with a single process.
//
// The script given to Start is plain CommonJS source that must define a function
//
//	function handle(req) { … return reply; }
//
// The harness calls handle with each parsed request and writes JSON.stringify of its result
// back. If handle throws, the reply is {"$error": message} and Call returns an error. The
// script may use the helpers of Prelude: str(units) builds a JavaScript string from an array of
// UTF-16 code units (null reads as empty), units(s) returns a string's code units, and bits(x)/num(hex) convert a
// number to and from the 16-hex-digit form of its IEEE 754 bits. Passing strings as code-unit
// arrays keeps lone surrogates intact, which JSON text in UTF-8 could not.
package nodejs

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// ErrNotFound is returned by Start when no node executable is on PATH.
var ErrNotFound = errors.New("nodejs: node executable not found on PATH")

// Prelude is the JavaScript source placed before every script: the str, units, bits and num
// helpers, described in the package documentation.
const Prelude = `"use strict";
function str(u) {
  if (u == null) return "";
  let s = "";
  for (let i = 0; i < u.length; i += 8192) s += String.fromCharCode.apply(null, u.slice(i, i + 8192));
  return s;
}
function units(s) {
  const u = new Array(s.length);
  for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
  return u;
}
const __dv = new DataView(new ArrayBuffer(8));
function bits(x) { __dv.setFloat64(0, x); return __dv.getBigUint64(0).toString(16).padStart(16, "0"); }
function num(h) { __dv.setBigUint64(0, BigInt("0x" + h)); return __dv.getFloat64(0); }
`

const harness = `
;(function () {
  const rl = require("node:readline").createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on("line", (line) => {
    let out;
    try {
      out = JSON.stringify(handle(JSON.parse(line)));
      if (out === undefined) out = "null";
    } catch (e) {
      out = JSON.stringify({ $error: String(e && e.stack || e) });
    }
    process.stdout.write(out + "\n");
  });
})();
`

// Process is a running helper script. Its methods are safe for concurrent use; calls are
// answered in order.
type Process struct {
	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr strings.Builder
	dir    string
}

// Path returns the node executable Start would run, or ErrNotFound.
func Path() (string, error) {
	p, err := exec.LookPath("node")
	if err != nil {
		return "", ErrNotFound
	}
	return p, nil
}

// Start runs node on Prelude + script + the request loop. The script must define handle.
func Start(script string) (*Process, error) {
	node, err := Path()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "nodejs-helper-")
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, "helper.cjs")
	if err := os.WriteFile(file, []byte(Prelude+script+harness), 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	p := &Process{dir: dir}
	p.cmd = exec.Command(node, file)
	p.cmd.Stderr = &lockedWriter{b: &p.stderr}
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	p.stdout = bufio.NewReaderSize(out, 1<<20)
	if err := p.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return p, nil
}

// lockedWriter collects the first 64 KiB of stderr.
type lockedWriter struct {
	b *strings.Builder
	m sync.Mutex
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.m.Lock()
	defer w.m.Unlock()
	if w.b.Len() < 1<<16 {
		w.b.Write(p)
	}
	return len(p), nil
}

// Call sends req (marshaled with encoding/json) to handle and unmarshals its reply into reply,
// which may be nil to discard it.
func (p *Process) Call(req, reply any) error {
	data, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("nodejs: encoding request: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := p.stdin.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("nodejs: writing request: %w%s", err, p.stderrTail())
	}
	line, err := p.stdout.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("nodejs: reading reply: %w%s", err, p.stderrTail())
	}
	var e struct {
		Err *string `json:"$error"`
	}
	if json.Unmarshal(line, &e) == nil && e.Err != nil {
		return fmt.Errorf("nodejs: script error: %s", *e.Err)
	}
	if reply == nil {
		return nil
	}
	if err := json.Unmarshal(line, reply); err != nil {
		return fmt.Errorf("nodejs: decoding reply: %w", err)
	}
	return nil
}

func (p *Process) stderrTail() string {
	w := p.cmd.Stderr.(*lockedWriter)
	w.m.Lock()
	defer w.m.Unlock()
	if w.b.Len() == 0 {
		return ""
	}
	return "; node stderr: " + w.b.String()
}

// Close ends the process by closing its stdin and waits for it to exit.
func (p *Process) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stdin.Close()
	err := p.cmd.Wait()
	os.RemoveAll(p.dir)
	return err
}

// StartTB is Start for a test: it skips tb with a clear message when node is not on PATH,
// fails it when the script cannot start, and closes the process when tb ends.
func StartTB(tb testing.TB, script string) *Process {
	tb.Helper()
	p, err := Start(script)
	if errors.Is(err, ErrNotFound) {
		tb.Skip("skipping differential test against JavaScript: node executable not found on PATH")
	}
	if err != nil {
		tb.Fatalf("starting node helper: %v", err)
	}
	tb.Cleanup(func() { p.Close() })
	return p
}

// MustCall is Call for a test: it fails tb on error.
func (p *Process) MustCall(tb testing.TB, req, reply any) {
	tb.Helper()
	if err := p.Call(req, reply); err != nil {
		tb.Fatal(err)
	}
}
