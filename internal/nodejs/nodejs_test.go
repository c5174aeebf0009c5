package nodejs

import "testing"

func TestCall(t *testing.T) {
	p := StartTB(t, `function handle(req) {
  if (req.op === "throw") throw new Error("boom");
  return { s: units(str(req.u) + "\uDC00"), b: bits(num(req.h) * 2) };
}`)
	var r struct {
		S []uint16
		B string
	}
	p.MustCall(t, map[string]any{"u": []uint16{0xD800, 'a'}, "h": "3ff0000000000000"}, &r)
	if len(r.S) != 3 || r.S[0] != 0xD800 || r.S[2] != 0xDC00 || r.B != "4000000000000000" {
		t.Fatalf("reply %+v", r)
	}
	if err := p.Call(map[string]string{"op": "throw"}, nil); err == nil {
		t.Fatal("want script error")
	}
	p.MustCall(t, map[string]any{"u": []uint16{}, "h": "0"}, &r) // still usable after an error
}
