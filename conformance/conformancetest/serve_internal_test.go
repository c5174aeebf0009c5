package conformancetest

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"github.com/sessionref-kit/sessionref-kit/conformance/internal/refport"
)

// Serve answers the protocol on stdin and stdout: the hello names the port and declares its
// features (host, world-cache), and a defined world serves a request that names it.
func TestServe(t *testing.T) {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, stdout := os.Stdin, os.Stdout
	os.Stdin, os.Stdout = inR, outW
	defer func() { os.Stdin, os.Stdout = stdin, stdout }()
	done := make(chan error, 1)
	go func() { done <- Serve(refport.HostPort{}); outW.Close() }()
	requests := []string{
		`{"id":1,"op":"hello","args":{"protocol":1}}`,
		`{"id":2,"op":"world.define","args":{"key":"w","world":{"sessions":[{"header":{"id":"a","createdAt":1},"title":"A"}]}}}`,
		`{"id":3,"op":"candidates","args":{"world":{"$ref":"w"},"agent":{"id":"me"}}}`,
		`{"id":4,"op":"candidates","args":{"world":{"$ref":"nope"},"agent":{"id":"me"}}}`,
		`{"id":5,"op":"host.send","args":{"world":{"$ref":"w"},"agent":{"id":"me"},"text":"hi"}}`,
	}
	if _, err := inW.WriteString(strings.Join(requests, "\n") + "\n"); err != nil {
		t.Fatal(err)
	}
	inW.Close()
	var got []string
	sc := bufio.NewScanner(outR)
	for sc.Scan() {
		got = append(got, sc.Text())
	}
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	want := []string{
		`{"id":1,"ok":true,"result":{"protocol":1,"name":"refport","version":"reference","spec":"0.0.1-rc.1","language":"go","features":["world-cache","lone-surrogates","host"]}`,
		`{"id":2,"ok":true,"result":{"key":"w"}`,
		`{"id":3,"ok":true,"result":{"candidates":[{"sessionId":"a","label":"A","createdAt":1}],"titleReads":["a"]}`,
		`{"id":4,"ok":false,"error":{"code":"ADAPTER_PROTOCOL"`,
		`{"id":5,"ok":true,"result":{"pending":[],"log":[{"source":{"kind":"user"},"content":[{"type":"text","text":"hi"}],"role":"user"}]`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d responses, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("response %d:\n got %s\nwant %s…", i+1, got[i], want[i])
		}
	}
}

// textPort is the reference port recording the text of the session ids EncodeURIValue gets.
type textPort struct {
	refport.Port
	got *[]string
}

func (p textPort) EncodeURIValue(id goport.Value) (string, error) {
	*p.got = append(*p.got, string(id))
	return refport.Port{}.EncodeURIValue(id)
}

// Over stdio, a port's goport.Value is the text of the request line, key order included, as
// a port in another language reads it; the answer is JavaScript's.
func TestServeKeepsKeyOrder(t *testing.T) {
	var got []string
	b, _, err := newBridge(textPort{got: &got}, "")
	if err != nil {
		t.Fatal(err)
	}
	in := `{"id":1,"op":"uri.encode","args":{"sessionId":{"b":1,"1":[{"y":2,"0":3}],"a":4}}}` + "\n"
	var out bytes.Buffer
	if err := adapter.Serve(context.Background(), strings.NewReader(in), &out, asSent{b}); err != nil {
		t.Fatal(err)
	}
	if want := `{"b":1,"1":[{"y":2,"0":3}],"a":4}`; len(got) != 1 || got[0] != want {
		t.Errorf("the port got %q, want [%q]", got, want)
	}
	// JSON.stringify(JSON.parse(...)) is {"1":[{"0":3,"y":2}],"b":1,"a":4} (Node 20).
	if want := `"result":"dsh-session:eyIxIjpbeyIwIjozLCJ5IjoyfV0sImIiOjEsImEiOjR9"`; !strings.Contains(out.String(), want) {
		t.Errorf("answer %s, want %s", out.String(), want)
	}
}
