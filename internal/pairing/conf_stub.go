package pairing
type configState struct{}
