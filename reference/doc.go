// Package reference is the Go reference implementation of the session-reference contract
// (spec/session-reference.md), the published package @deepseek-ai/dsh-session-reference at
// 0.0.1-rc.1, byte for byte. It holds no code; its packages, by spec area:
//
//	SR-STR-*     jsstring   JavaScript strings as WTF-8 Go strings, lowercasing, whitespace
//	             jsjson     JSON.stringify and JSON.parse; Arg, an argument that may be undefined
//	SR-URI-*     uri        dsh-session: URIs, canonical decoding
//	SR-MENTION-* mention    @[label](uri) mentions and bare URIs in text
//	SR-CONF-*    service    configuration (Config, ConfigFromValue)
//	SR-CAND-*    service    candidate listing (ListCandidates)
//	SR-PREP-*    service    preparation (Prepare, NormalizeReferences)
//	SR-PROMPT-*  service    the prompt and the source record (Message)
//	SR-CANCEL-*  service    cancellation through context.Context
//	SR-PROJ-*    retention  current-surface projection (Project)
//	SR-RET-*     retention  the byte cap, drops and truncation (Retain, Truncate)
//	SR-ERR-*     errcode    the seven codes, TypeError (no code); precedence lives with each operation
//	SR-QUERY-*   sessionquery  the session-query service consumed (Querier)
//	             sessionquery/sessionquerytest  World, an in-memory Querier, and Recorder
//	SR-HOST-*    host       the host's delivery model
//
// Each typed function has a *Value form over JavaScript values (uri.EncodeValue,
// mention.FormatValue, service.Service.PrepareValue …) for arguments of any JavaScript type,
// as a JavaScript caller may pass them; it checks the types the seed's code would trip on,
// then runs the typed code. Nothing here knows of the conformance kit.
package reference
