// Package reference is the Go reference implementation of the session-reference contract
// (spec/session-reference.md), the published package @deepseek-ai/dsh-session-reference at
// 0.0.1-rc.1, byte for byte. It holds no code; its packages, by spec area:
//
//	SR-STR-*     jsstring   JavaScript strings as WTF-8 Go strings, lowercasing, whitespace
//	             jsjson     JSON.stringify and JSON.parse
//	SR-URI-*     uri        dsh-session: URIs, canonical decoding
//	SR-MENTION-* mention    @[label](uri) mentions and bare URIs in text
//	SR-CONF-*    service    configuration (Config, ConfigFromValue)
//	SR-CAND-*    service    candidate listing (ListCandidates)
//	SR-PREP-*    service    preparation (Prepare, NormalizeReferences)
//	SR-PROMPT-*  service    the prompt and the source record (Message)
//	SR-CANCEL-*  service    cancellation through context.Context
//	SR-PROJ-*    retention  current-surface projection (Project)
//	SR-RET-*     retention  the byte cap, drops and truncation (Retain, Truncate)
//	SR-ERR-*     errcode    the seven codes; precedence lives with each operation
//	SR-QUERY-*   sessionquery  the session-query service consumed, and World, its fake
//	SR-HOST-*    host       the host's delivery model
package reference
