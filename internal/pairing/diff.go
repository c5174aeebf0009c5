package pairing

// Limits on what a diff shows: the text is clipped at maxDiffBytes.
const maxDiffBytes = 64 << 10

// Changes is what changed in one side since the confirmed state, when the
// repository holds the confirmed blob.
type Changes struct {
	// Source says where the confirmed blob was read: "git" (`git cat-file`), or
	// "unavailable" with Reason.
	Source string `json:"source"`
	Reason string `json:"reason,omitempty"`
	// Added and Removed count lines as `git diff --numstat` does, against the
	// blob git would store now.
	Added   int `json:"added,omitempty"`
	Removed int `json:"removed,omitempty"`
	// Diff is git's unified diff (a/ the confirmed blob, b/ the current one),
	// clipped to 64 KiB; Truncated says it was.
	Diff      string `json:"diff,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
}
