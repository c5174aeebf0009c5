package adapter

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// A request line over MaxLine gets a clear error and the server goes on: it neither buffers
// the whole line nor exits.
func TestServeRefusesOverlongLine(t *testing.T) {
	var in bytes.Buffer
	in.WriteString(`{"id":1,"op":"uri.encode","args":{"sessionId":"`)
	in.WriteString(strings.Repeat("x", MaxLine))
	in.WriteString("\"}}\n")
	in.WriteString(`{"id":2,"op":"uri.encode","args":{"sessionId":"a"}}` + "\n")
	var out bytes.Buffer
	if err := Serve(context.Background(), &in, &out, &Reference{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d response lines, want 2: %q", len(lines), out.String())
	}
	if !strings.Contains(lines[0], `"id":null`) || !strings.Contains(lines[0], "ADAPTER_PROTOCOL") || !strings.Contains(lines[0], "longer than") {
		t.Errorf("overlong line answered %s", lines[0])
	}
	if !strings.Contains(lines[1], `"id":2,"ok":true,"result":"dsh-session:ImEi"`) {
		t.Errorf("next request answered %s", lines[1])
	}
}
