package protocol

import (
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

func TestResponseElapsed(t *testing.T) {
	r, err := ParseResponse(`{"id":3,"ok":true,"result":"x","elapsedNs":1500}`)
	if err != nil || r.Elapsed != 1500*time.Nanosecond {
		t.Fatalf("ParseResponse = %+v, %v; want Elapsed 1.5µs", r, err)
	}
	// Timing is metadata: the plain line leaves it out, the adapter's line keeps it.
	if b, _ := r.Line(); string(b) != `{"id":3,"ok":true,"result":"x"}` {
		t.Errorf("Line = %s", b)
	}
	if b, _ := wire.Marshal(r.ValueWithElapsed()); string(b) != `{"id":3,"ok":true,"result":"x","elapsedNs":1500}` {
		t.Errorf("ValueWithElapsed = %s", b)
	}
	if r, err := ParseResponse(`{"id":3,"ok":true,"result":"x"}`); err != nil || r.Elapsed != 0 {
		t.Errorf("absent elapsedNs: %+v, %v", r, err)
	}
	for _, bad := range []string{`"1"`, `-1`, `1.5`, `null`} {
		if _, err := ParseResponse(`{"id":3,"ok":true,"result":"x","elapsedNs":` + bad + `}`); err == nil {
			t.Errorf("elapsedNs %s accepted", bad)
		}
	}
}

func TestWorldRefKey(t *testing.T) {
	key, isRef, err := WorldRefKey(WorldRef("w1"))
	if key != "w1" || !isRef || err != nil {
		t.Errorf("WorldRefKey(WorldRef) = %q, %v, %v", key, isRef, err)
	}
	doc := wire.NewObject().Set("sessions", []any{})
	if _, isRef, err := WorldRefKey(doc); isRef || err != nil {
		t.Errorf("a world document read as a reference: %v, %v", isRef, err)
	}
	for _, bad := range []*wire.Object{
		wire.NewObject().Set(RefKey, 1.0),
		WorldRef("w1").Set("sessions", []any{}),
	} {
		if _, isRef, err := WorldRefKey(bad); !isRef || err == nil {
			t.Errorf("malformed reference accepted: %v, %v", isRef, err)
		}
	}
}
