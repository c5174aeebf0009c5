//! The adapter kit for a Rust port of the session-reference contract: a port implements
//! [`Port`] (and its [`Service`]) in Rust types, and its `main` is
//!
//! ```ignore
//! fn main() { sessionref_kit::serve(MyPort::default()) }
//! ```
//!
//! The kit speaks the adapter protocol (spec/protocol.md) on stdin and stdout: the hello, ids,
//! errors with codes, the 64 MiB limits, lone surrogates, JavaScript numbers; it builds the
//! fake session-query service of each request from its world, with the cancel modes done on a
//! JavaScript-like event loop ([`exec`]), and models `host.send`. Standard library only.

pub mod exec;
pub mod json;
mod serve;
pub mod world;

pub use exec::{all, race, Aborted, Loop, Signal};
pub use json::{number_to_string, parse, stringify, JsString, Object, Value};
pub use serve::{serve, Adapter, MAX_LINE};
pub use world::{normalized_sources, Header, HoldCall, Query, QueryError, SessionRecord, Surface, TitleSettlement, World};

use std::future::Future;

/// The contract's failure codes (SessionReferenceErrorCode).
pub mod code {
    pub const INVALID_CONFIG: &str = "SESSION_REFERENCE_INVALID_CONFIG";
    pub const INVALID_REFERENCE: &str = "SESSION_REFERENCE_INVALID_REFERENCE";
    pub const SELF_REFERENCE: &str = "SESSION_REFERENCE_SELF_REFERENCE";
    pub const TOO_MANY: &str = "SESSION_REFERENCE_TOO_MANY";
    pub const READ_FAILED: &str = "SESSION_REFERENCE_READ_FAILED";
    pub const BUDGET_EXCEEDED: &str = "SESSION_REFERENCE_BUDGET_EXCEEDED";
    pub const CANCELLED: &str = "SESSION_REFERENCE_CANCELLED";
}

/// A failure: a contract code (a SessionReferenceError), none (the seed's TypeError or any
/// other error), or an adapter-level refusal.
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    /// The wire's error.code: a contract code, ADAPTER_PROTOCOL, ADAPTER_UNSUPPORTED, or None.
    pub code: Option<String>,
    /// Free text.
    pub message: String,
}

impl Error {
    /// A SessionReferenceError with one of the [`code`]s.
    pub fn contract(code: &str, message: impl Into<String>) -> Self {
        Error { code: Some(code.into()), message: message.into() }
    }
    /// An error without a code (a TypeError, a failed read passed through …).
    pub fn plain(message: impl Into<String>) -> Self {
        Error { code: None, message: message.into() }
    }
    /// The port does not implement this: the checks that need it are not covered.
    pub fn unsupported(message: impl Into<String>) -> Self {
        Error { code: Some("ADAPTER_UNSUPPORTED".into()), message: message.into() }
    }
    /// A malformed world, agent or request (ADAPTER_PROTOCOL).
    pub fn protocol(message: impl Into<String>) -> Self {
        Error { code: Some("ADAPTER_PROTOCOL".into()), message: message.into() }
    }
}

/// The effective configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    pub max_references: u64,
    pub candidate_limit: u64,
    pub max_reference_bytes: u64,
}

/// The target agent: its id and working directory.
#[derive(Clone, Debug, PartialEq)]
pub struct Agent {
    pub id: JsString,
    pub cwd: Option<JsString>,
}

/// One reference parsed from text.
#[derive(Clone, Debug, PartialEq)]
pub struct Mention {
    pub session_id: JsString,
    pub label: JsString,
}

/// A parsed text: the readable text and the references in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    pub text: JsString,
    pub references: Vec<Mention>,
}

/// A candidate: cwd None when the session has none; createdAt as the header has it.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub session_id: JsString,
    pub label: JsString,
    pub cwd: Option<JsString>,
    pub created_at: Value,
}

/// A prepared message: content as given (Undefined when none was), and the context message
/// {source, content, role, id?} (None when the message references nothing).
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    pub content: Value,
    pub additional_context: Option<Object>,
}

/// A Rust port of the contract. Arguments a JavaScript caller may pass with any type arrive
/// as [`Value`]s (Undefined when absent), which the port validates as the seed does; the
/// rest are Rust types. Strings are [`JsString`]s (UTF-16 code units, lone surrogates
/// included).
pub trait Port {
    /// The port's service.
    type Service: Service;
    /// The name the hello reports.
    fn name(&self) -> String {
        "rust-port".into()
    }
    /// The version the hello reports.
    fn version(&self) -> String {
        "0".into()
    }
    /// The contract release implemented: "0.0.1-rc.1" or "0.1.0-rc.8".
    fn profile(&self) -> String {
        "0.0.1-rc.1".into()
    }
    /// Whether the port implements [`Port::deliver`] (feature host).
    fn host(&self) -> bool {
        false
    }
    /// encodeSessionReferenceUri(sessionId).
    fn encode_uri(&self, session_id: &Value) -> Result<JsString, Error>;
    /// decodeSessionReferenceUri(uri).
    fn decode_uri(&self, uri: &Value) -> Result<JsString, Error>;
    /// formatSessionReferenceMention({sessionId, label}); label Undefined when absent.
    fn format_mention(&self, session_id: &Value, label: &Value) -> Result<JsString, Error>;
    /// parseSessionReferenceText(text).
    fn parse_mentions(&self, text: &Value) -> Result<Parsed, Error>;
    /// new SessionReferenceService(ctx, config) over query; config Undefined when absent.
    fn new_service(&self, query: Query, config: &Value) -> Result<Self::Service, Error>;
    /// The host wiring (SR-HOST-*), when [`Port::host`] says so: the messages a host enqueues
    /// for text sent to agent, in the port's order (the direct message {source: {kind:
    /// "user"}, content, role: "user"} and, when the text references sessions, the context
    /// message).
    fn deliver(&self, _service: &Self::Service, _agent: &Agent, _text: &JsString) -> impl Future<Output = Result<Vec<Object>, Error>> {
        async { Err(Error::unsupported("the port has no host wiring")) }
    }
}

/// A port's SessionReferenceService. Its futures run on the kit's loop: await the query's
/// calls, combine them with [`all`] and [`race`]; never block.
pub trait Service {
    /// The effective configuration.
    fn config(&self) -> Config;
    /// listCandidates(agent, query, limit, signal); query and limit Undefined when absent.
    fn list_candidates(&self, agent: &Agent, query: &Value, limit: &Value, signal: Option<&Signal>) -> impl Future<Output = Result<Vec<Candidate>, Error>>;
    /// prepare(agent, content, references, signal); content Undefined when absent.
    fn prepare(&self, agent: &Agent, content: &Value, references: &Value, signal: Option<&Signal>) -> impl Future<Output = Result<Prepared, Error>>;
}
