package adapter_test

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/internal/sweep"
)

// A request line over MaxLine gets a clear error and the server goes on: it neither buffers
// the whole line nor exits.
func TestServeRefusesOverlongLine(t *testing.T) {
	// The behaviour at a bound of 1,000 bytes; the protocol's own 64 MiB, Serve's default, as
	// a sweep (a 64 MiB line built and read is most of this package's CPU).
	limits := []int{1000}
	if sweep.On() {
		limits = append(limits, 0)
	}
	for _, limit := range limits {
		t.Run(fmt.Sprint(cmp.Or(limit, adapter.MaxLine)), func(t *testing.T) {
			var in bytes.Buffer
			in.WriteString(`{"id":1,"op":"uri.encode","args":{"sessionId":"`)
			in.WriteString(strings.Repeat("x", cmp.Or(limit, adapter.MaxLine)))
			in.WriteString("\"}}\n")
			in.WriteString(`{"id":2,"op":"uri.encode","args":{"sessionId":"a"}}` + "\n")
			var out bytes.Buffer
			serve := func() error { return adapter.Serve(context.Background(), &in, &out, &refadapter.Reference{}) }
			if limit > 0 {
				serve = func() error {
					return adapter.ServeWith(context.Background(), &in, &out, &refadapter.Reference{}, adapter.ServeOptions{MaxRequest: limit})
				}
			}
			if err := serve(); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if len(lines) != 2 {
				t.Fatalf("%d response lines, want 2: %.300q", len(lines), out.String())
			}
			if !strings.Contains(lines[0], `"id":null`) || !strings.Contains(lines[0], "ADAPTER_PROTOCOL") || !strings.Contains(lines[0], "longer than") {
				t.Errorf("overlong line answered %s", lines[0])
			}
			if !strings.Contains(lines[1], `"id":2,"ok":true,"result":"dsh-session:ImEi"`) {
				t.Errorf("next request answered %s", lines[1])
			}
		})
	}
}

// An answer over the protocol's line limit is never written: the client would refuse the
// line. The request gets ADAPTER_UNSUPPORTED with its id (the check cannot be made over the
// protocol), and the server goes on.
func TestServeRefusesOverlongAnswer(t *testing.T) {
	var in bytes.Buffer
	in.WriteString(`{"id":1,"op":"uri.encode","args":{"sessionId":"` + strings.Repeat("x", 2000) + "\"}}\n")
	var sessions []string
	for i := range 100 {
		sessions = append(sessions, fmt.Sprintf(`{"header":{"id":"s%d","createdAt":%d}}`, i, i))
	}
	in.WriteString(`{"id":2,"op":"candidates","args":{"world":{"sessions":[` + strings.Join(sessions, ",") + `]},"agent":{"id":"me"},"limit":9007199254740991,"config":{"candidateLimit":9007199254740991}}}` + "\n")
	in.WriteString(`{"id":3,"op":"uri.encode","args":{"sessionId":"a"}}` + "\n")
	var out bytes.Buffer
	if err := adapter.ServeWith(context.Background(), &in, &out, &refadapter.Reference{}, adapter.WithMaxResponse(adapter.ServeOptions{}, 1000)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d response lines, want 3: %q", len(lines), out.String())
	}
	for i, l := range lines[:2] {
		if len(l) > 1000 || !strings.HasPrefix(l, fmt.Sprintf(`{"id":%d,"ok":false,"error":{"code":"ADAPTER_UNSUPPORTED"`, i+1)) || !strings.Contains(l, "limit of 1000 bytes") {
			t.Errorf("overlong answer %d: %s", i+1, l)
		}
	}
	if !strings.HasPrefix(lines[2], `{"id":3,"ok":true,"result":"dsh-session:ImEi"`) {
		t.Errorf("next request answered %s", lines[2])
	}
}

// The protocol is UTF-8: a request holding a lone surrogate as raw bytes (its WTF-8 form)
// is not a request, though the same surrogate as a \u escape is.
func TestServeRejectsRawSurrogates(t *testing.T) {
	in := strings.NewReader("{\"id\":1,\"op\":\"uri.encode\",\"args\":{\"sessionId\":\"\xed\xa0\x80\"}}\n" +
		`{"id":2,"op":"uri.encode","args":{"sessionId":"\ud800"}}` + "\n")
	var out bytes.Buffer
	if err := adapter.Serve(context.Background(), in, &out, &refadapter.Reference{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], `{"id":null,"ok":false,"error":{"code":"ADAPTER_PROTOCOL"`) || !strings.HasPrefix(lines[1], `{"id":2,"ok":true`) {
		t.Errorf("answers %q", lines)
	}
}

// BenchmarkServeLargeWorld serves a candidates request over a world of 10^5 sessions with
// no limit (every session is a candidate) and reports the bytes allocated per byte of the
// request: what the reference adapter needs to hold a world and answer it.
func BenchmarkServeLargeWorld(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"id":1,"op":"candidates","args":{"world":{"sessions":[`)
	for i := range 100_000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"header":{"id":"s%06d","createdAt":%d},"title":"t"}`, i, i)
	}
	sb.WriteString(`]},"agent":{"id":"me"},"limit":9007199254740991,"config":{"candidateLimit":9007199254740991}}}` + "\n")
	req := sb.String()
	b.SetBytes(int64(len(req)))
	b.ReportAllocs()
	var total uint64
	for b.Loop() {
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		if err := adapter.ServeWith(context.Background(), strings.NewReader(req), io.Discard, &refadapter.Reference{}, adapter.ServeOptions{}); err != nil {
			b.Fatal(err)
		}
		runtime.ReadMemStats(&ms1)
		total += ms1.TotalAlloc - ms0.TotalAlloc
	}
	b.ReportMetric(float64(total)/float64(b.N)/float64(len(req)), "alloc-B/request-B")
}
