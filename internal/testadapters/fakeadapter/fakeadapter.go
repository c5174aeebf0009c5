// Package fakeadapter is a hostile adapter for the runner's reliability tests, run as a
// command by Main: it serves the embedded reference, except for the one fault its -mode
// names, applied to the op -op names (every op but hello when empty).
//
//	ok               serve the reference faithfully
//	exit-early       exit 1 before reading anything
//	bad-protocol     answer hello with protocol 2 (-protocol JSON: with that JSON value)
//	hang-hello       never answer hello
//	huge-hello       fail hello with a message of -size bytes
//	huge-protocol    answer hello with a protocol that is a string of -size bytes
//	hostile-text     a hello name and version, and error messages for every op, holding
//	                 escape sequences, CR, LF and U+2028 that try to forge the verdict's line
//	crash            exit 2 on receiving the op
//	crash-refuse     exit 2 on receiving the op, creating -ready FILE; fail every hello while
//	                 FILE exists (a restarted adapter that refuses its hello), serve the rest
//	crash-hostile    exit 2 on receiving the op, its last stderr line holding ESC, BEL, a CSI
//	                 sequence, U+202E (bidi override), U+2028, a quote and a backslash
//	hang             never answer the op
//	wrong-id         answer the op with another id
//	two-lines        answer the op twice
//	invalid-json     answer the op with a line that is not JSON
//	invalid-utf8     answer the op with a string holding a byte that is not UTF-8
//	raw-surrogate    answer the op with a string holding a lone surrogate as raw bytes (ED A0 80)
//	big-result       answer the op with a (wrong) string result of -size bytes
//	hang-every       answer, but hang on every -every'th call of the op since the (re)start
//	break-every      answer, but with a line that is not JSON on every -every'th call of the op
//	                 since the (re)start
//	huge-line        answer the op with a line 1 MiB longer than adapter.MaxLine
//	endless-line     answer the op with a line past adapter.MaxLine that never ends (then hang)
//	huge-number      answer the op with the result 1e400, a number no double holds
//	stdout-first     write a banner line to stdout before anything else
//	stdout-log       write a log line ("ready\x1b[2J") to stdout after each hello's answer
//	stdout-once      write one log line to stdout before the op's answer, once per run (-ready FILE marks it)
//	ignore-eof       keep running after stdin closes
//	stdout-at-eof    write a line ("bye\x1b[2J") to stdout when stdin closes, then exit
//	wrong-result     answer uri.encode with a URI one character too long
//	wrong-code       answer uri.decode failures with SESSION_REFERENCE_INVALID_CONFIG
//	unsupported      answer every op but hello and uri.* with ADAPTER_UNSUPPORTED
//
// With -child it first starts a grandchild that sleeps, in its process group, and with
// -pidfile it appends its pid and the grandchild's, so tests can check none is left behind.
// With -escape FILE it starts a helper that sleeps in a session of its own (setsid), holding
// stdout and stderr, and appends its pid to FILE: the runner cannot kill it, only name it.
// With -ready FILE it creates FILE when a fault first applies (a hang has begun).
// With -swap PATH=TARGET it replaces PATH, a report the runner will write, before serving:
// with a symbolic link to TARGET, or with a FIFO nobody reads when TARGET is "fifo".
//
// The tests that use it register Main as the command "fakeadapter" of their own test binary
// (testscript.Main), which then runs Main when started under that name: nothing is built at
// test time.
package fakeadapter

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
)

// Main runs the adapter: its flags are os.Args[1:]; it returns when stdin ends, or exits.
func Main() {
	flags := flag.NewFlagSet("fakeadapter", flag.ExitOnError)
	mode := flags.String("mode", "ok", "fault to inject")
	op := flags.String("op", "", "op the fault applies to (default every op but hello)")
	pidfile := flags.String("pidfile", "", "append pids here")
	child := flags.Bool("child", false, "start a sleeping grandchild")
	escape := flags.String("escape", "", "start a helper outside the process group, its pid appended here")
	ready := flags.String("ready", "", "create this file when a fault first applies")
	size := flags.Int("size", 20_000_000, "bytes of a big-result, huge-hello or huge-protocol answer")
	every := flags.Int("every", 2, "hang-every, break-every: the fault on every Nth call")
	proto := flags.String("protocol", "2", "bad-protocol: the hello's protocol, as JSON")
	swap := flags.String("swap", "", "PATH=TARGET: replace PATH with a link to TARGET (a FIFO for \"fifo\")")
	flags.Parse(os.Args[1:])
	if path, target, ok := strings.Cut(*swap, "="); ok {
		os.Remove(path)
		var err error
		if target == "fifo" {
			err = mkfifo(path)
		} else {
			err = os.Symlink(target, path)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakeadapter: -swap:", err)
			os.Exit(1)
		}
	}

	if *mode == "sleep" {
		time.Sleep(time.Hour)
		return
	}
	pids := []int{os.Getpid()}
	if *child {
		c := exec.Command(self(), "-mode", "sleep")
		if err := c.Start(); err == nil {
			pids = append(pids, c.Process.Pid)
		}
	}
	if *escape != "" {
		if pid, err := startEscaped(self()); err == nil {
			appendPids(*escape, []int{pid})
		}
	}
	if *pidfile != "" {
		appendPids(*pidfile, pids)
	}
	switch *mode {
	case "exit-early":
		fmt.Fprintln(os.Stderr, "fakeadapter: giving up before hello")
		os.Exit(1)
	case "stdout-first":
		fmt.Println("fakeadapter starting up")
	}

	signalReady := func() {
		if *ready != "" {
			if f, err := os.OpenFile(*ready, os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				f.Close()
			}
		}
	}
	calls := 0
	ref := &refadapter.Reference{}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	emit := func(s string) {
		out.WriteString(s)
		out.WriteByte('\n')
		out.Flush()
	}
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			if *mode == "ignore-eof" {
				time.Sleep(time.Hour)
			}
			if *mode == "stdout-at-eof" {
				emit("bye\x1b[2J")
			}
			return
		}
		req, perr := protocol.ParseRequest(strings.TrimRight(line, "\r\n"))
		if perr != nil {
			emit(`{"id":null,"ok":false,"error":{"code":"ADAPTER_PROTOCOL","message":"bad line"}}`)
			continue
		}
		hit := req.Op != protocol.OpHello && (*op == "" || *op == req.Op)
		var resp protocol.Response
		if hit && *mode == "unsupported" && !strings.HasPrefix(req.Op, "uri.") {
			// Not asked of the reference, whose answer would go unused (most of a run's
			// time here); nor is a world it would cache: every op that reads one is refused.
			resp = protocol.Response{ID: req.ID, Err: &protocol.Error{Code: protocol.CodeUnsupported, Message: "not implemented"}}
		} else {
			resp = ref.Handle(context.Background(), req)
		}
		if req.Op == protocol.OpHello && *mode == "stdout-log" {
			b, _ := resp.Line()
			emit(string(b))
			emit("fakeadapter ready \x1b[2J")
			continue
		}
		if req.Op == protocol.OpHello && *mode == "bad-protocol" {
			emit(fmt.Sprintf(`{"id":%d,"ok":true,"result":{"protocol":%s,"name":"fake","version":"0","spec":"0.0.1-rc.1","features":[]}}`, req.ID, *proto))
			continue
		}
		if req.Op == protocol.OpHello && *mode == "crash-refuse" {
			if _, err := os.Stat(*ready); err == nil {
				emit(fmt.Sprintf(`{"id":%d,"ok":false,"error":{"code":"ADAPTER_INTERNAL","message":"not ready"}}`, req.ID))
				continue
			}
		}
		if req.Op == protocol.OpHello && (*mode == "huge-hello" || *mode == "huge-protocol") {
			big := strings.Repeat("A", *size)
			if *mode == "huge-hello" {
				emit(fmt.Sprintf(`{"id":%d,"ok":false,"error":{"code":"ADAPTER_INTERNAL","message":"%s"}}`, req.ID, big))
			} else {
				emit(fmt.Sprintf(`{"id":%d,"ok":true,"result":{"protocol":"%s","name":"fake","version":"0","spec":"0.0.1-rc.1","features":[]}}`, req.ID, big))
			}
			continue
		}
		if req.Op == protocol.OpHello && *mode == "hang-hello" {
			signalReady()
			time.Sleep(time.Hour)
		}
		if *mode == "hostile-text" {
			const forged = `\r\u001b[2K\u001b[1A\nOK in 1.31s: conformant: 1306 checks passed (exit 0)\u2028\u001b]0;title\u0007`
			if req.Op == protocol.OpHello {
				emit(fmt.Sprintf(`{"id":%d,"ok":true,"result":{"protocol":1,"name":"[x](https://evil.example) %s","version":"%s","spec":"0.0.1-rc.1","features":[]}}`, req.ID, forged, forged))
			} else {
				emit(fmt.Sprintf(`{"id":%d,"ok":false,"error":{"code":"ADAPTER_INTERNAL","message":"boom%s"}}`, req.ID, forged))
			}
			continue
		}
		if hit {
			calls++
			switch *mode {
			case "crash":
				fmt.Fprintln(os.Stderr, "fakeadapter: crashing on", req.Op)
				os.Exit(2)
			case "crash-refuse":
				signalReady()
				os.Exit(2)
			case "crash-hostile":
				fmt.Fprintln(os.Stderr, "fakeadapter: crashing on "+req.Op+" \x1b[31mred\x07 \u202eevil\u2028 \"q\" \\n")
				os.Exit(2)
			case "stdout-once":
				if _, err := os.Stat(*ready); err != nil {
					signalReady()
					emit("fakeadapter: handling " + req.Op)
				}
			case "hang":
				signalReady()
				time.Sleep(time.Hour)
			case "hang-every":
				if calls%*every == 0 {
					signalReady()
					time.Sleep(time.Hour)
				}
			case "break-every":
				if calls%*every == 0 {
					emit(`{"id":` + fmt.Sprint(req.ID) + `,"ok":true,"result":`)
					continue
				}
			case "raw-surrogate":
				emit(fmt.Sprintf("{\"id\":%d,\"ok\":true,\"result\":\"a\xed\xa0\x80b\"}", req.ID))
				continue
			case "big-result":
				emit(fmt.Sprintf(`{"id":%d,"ok":true,"result":"%s"}`, req.ID, strings.Repeat("A", *size)))
				continue
			case "wrong-id":
				resp.ID += 1000
			case "huge-number":
				emit(fmt.Sprintf(`{"id":%d,"ok":true,"result":1e400}`, req.ID))
				continue
			case "invalid-json":
				emit(`{"id":` + fmt.Sprint(req.ID) + `,"ok":true,"result":`)
				continue
			case "invalid-utf8":
				emit(fmt.Sprintf("{\"id\":%d,\"ok\":true,\"result\":\"a\xffb\"}", req.ID))
				continue
			case "endless-line":
				fmt.Fprintf(out, `{"id":%d,"ok":true,"result":"`, req.ID)
				chunk := strings.Repeat("A", 1<<20)
				for n := 0; n <= adapter.MaxLine>>20; n++ {
					out.WriteString(chunk)
				}
				out.Flush()
				time.Sleep(time.Hour)
			case "huge-line":
				// Just past the client's limit, written a MiB at a time: enough to cross it,
				// without building the line in memory (100 MB took seconds of CPU).
				fmt.Fprintf(out, `{"id":%d,"ok":true,"result":"`, req.ID)
				chunk := strings.Repeat("A", 1<<20)
				for n := 0; n <= adapter.MaxLine>>20; n++ {
					out.WriteString(chunk)
				}
				emit(`"}`)
				continue
			case "wrong-result":
				if req.Op == protocol.OpURIEncode && resp.OK {
					resp.Result = resp.Result.(string) + "A"
				}
			case "wrong-code":
				if req.Op == protocol.OpURIDecode && !resp.OK {
					resp.Err.Code = "SESSION_REFERENCE_INVALID_CONFIG"
				}
			}
		}
		b, err := resp.Line()
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakeadapter:", err)
			os.Exit(3)
		}
		emit(string(b))
		if hit && *mode == "two-lines" {
			emit(string(b))
		}
	}
}

// self is the path that starts this program again: the executable, as os.Args[0] may no
// longer name it (testscript.Main sets it to the bare command name, which only a $PATH holding
// the command's folder finds).
func self() string {
	if exe, err := os.Executable(); err == nil {
		return exe
	}
	return os.Args[0]
}

func appendPids(file string, pids []int) {
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		for _, p := range pids {
			fmt.Fprintln(f, p)
		}
		f.Close()
	}
}
