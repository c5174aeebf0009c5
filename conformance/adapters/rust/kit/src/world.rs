//! The protocol's world document (spec/protocol.md, "The world"), checked, and the fake
//! session-query service a request reads it through: one per request, recording its calls,
//! holding one for the cancel modes.

use crate::exec::{Loop, Settle, Signal};
use crate::json::{quote, JsString, Object, Value};
use crate::Error;
use std::cell::RefCell;
use std::rc::Rc;

/// A session header: id, cwd (None when absent), createdAt as written, and the whole object.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub id: JsString,
    pub cwd: Option<JsString>,
    pub created_at: Value,
    pub value: Object,
}

/// One listed session.
#[derive(Clone, Debug)]
pub struct SessionRecord {
    pub header: Header,
    pub live: bool,
    pub persisted: bool,
}

/// A session-query call's failure (the JavaScript Error it rejects with).
#[derive(Clone, Debug, PartialEq)]
pub struct QueryError(pub JsString);

/// One title read's settlement: Ok((header, title)) with title None when the session has
/// none, or the rejection.
#[derive(Clone, Debug)]
pub struct TitleSettlement {
    pub session_id: JsString,
    pub outcome: Result<(Header, Option<JsString>), QueryError>,
}

/// A session's current surface: capturedThroughSeq a number or null; events as written.
#[derive(Clone, Debug)]
pub struct Surface {
    pub session: Header,
    pub captured_through_seq: Value,
    pub events: Vec<Value>,
}

/// A world document, checked.
#[derive(Clone, Debug)]
pub struct World {
    pub(crate) sessions: Rc<Vec<Object>>,
    list_error: Option<JsString>,
}

fn protocol(msg: impl Into<String>) -> Error {
    Error::protocol(msg)
}

fn only(o: &Object, where_: &str, keys: &[&str]) -> Result<(), Error> {
    for (k, _) in &o.0 {
        if !keys.iter().any(|x| JsString::from(*x) == *k) {
            return Err(protocol(format!("{}: unknown key {}", where_, quote(k))));
        }
    }
    Ok(())
}

fn opt_string(o: &Object, key: &str, where_: &str) -> Result<Option<JsString>, Error> {
    match o.get(key) {
        Value::Null | Value::Undefined => Ok(None),
        Value::String(s) => Ok(Some(s.clone())),
        _ => Err(protocol(format!("{}.{}: not a string or null", where_, key))),
    }
}

/// Reads a header.
pub(crate) fn header(v: &Value, where_: &str) -> Result<Header, Error> {
    let o = v.as_object().ok_or_else(|| protocol(format!("{}: not an object", where_)))?;
    let id = o.get("id").as_str().ok_or_else(|| protocol(format!("{}: id is not a string", where_)))?.clone();
    if !matches!(o.get("createdAt"), Value::Number(_)) {
        return Err(protocol(format!("{}: createdAt is not a number", where_)));
    }
    let cwd = match o.get("cwd") {
        Value::Undefined => None,
        Value::String(s) => Some(s.clone()),
        _ => return Err(protocol(format!("{}: cwd is not a string", where_))),
    };
    Ok(Header { id, cwd, created_at: o.get("createdAt").clone(), value: o.clone() })
}

impl World {
    /// Reads and checks a world document; null for an optional key is the key absent.
    pub fn of(v: &Value) -> Result<World, Error> {
        let root = v.as_object().ok_or_else(|| protocol("world: not an object"))?;
        only(root, "world", &["sessions", "listError"])?;
        let list_error = opt_string(root, "listError", "world")?;
        let mut sessions = Vec::new();
        match root.get("sessions") {
            Value::Undefined => {}
            Value::Array(list) => {
                for (i, s) in list.iter().enumerate() {
                    let where_ = format!("world: sessions[{}]", i);
                    let o = s.as_object().ok_or_else(|| protocol(format!("{}: not an object", where_)))?;
                    only(o, &where_, &["header", "title", "titleError", "surface", "readError"])?;
                    header(o.get("header"), &format!("{}.header", where_))?;
                    for k in ["title", "titleError", "readError"] {
                        opt_string(o, k, &where_)?;
                    }
                    match o.get("surface") {
                        Value::Null | Value::Undefined => {}
                        Value::Object(so) => {
                            only(so, &format!("{}.surface", where_), &["capturedThroughSeq", "events"])?;
                            if !matches!(so.get("capturedThroughSeq"), Value::Null | Value::Undefined | Value::Number(_)) {
                                return Err(protocol(format!("{}.surface.capturedThroughSeq: not a number or null", where_)));
                            }
                            if !matches!(so.get("events"), Value::Undefined | Value::Array(_)) {
                                return Err(protocol(format!("{}.surface.events: not an array", where_)));
                            }
                        }
                        _ => return Err(protocol(format!("{}.surface: not an object", where_))),
                    }
                    sessions.push(o.clone());
                }
            }
            _ => return Err(protocol("world: sessions is not an array")),
        }
        Ok(World { sessions: Rc::new(sessions), list_error })
    }

    pub(crate) fn find(&self, id: &JsString) -> Option<&Object> {
        self.sessions.iter().find(|s| s.get("header").as_object().map(|h| h.get("id").as_str() == Some(id)).unwrap_or(false))
    }

    /// The session-query service of one request over this world (see Query); its held call
    /// is the first call (a candidates' listing) until `Query::arm` names another.
    pub fn query(&self, lp: &Loop, cancel: &Value, signal: Option<&Signal>) -> Query {
        let mode = match (signal, cancel.as_str().map(|s| s.to_string_lossy()).as_deref()) {
            (Some(_), Some("during-read")) => Mode::DuringRead,
            (Some(_), Some("at-call")) => Mode::AtCall,
            _ => Mode::Other,
        };
        Query(Rc::new(QueryState {
            world: self.clone(),
            lp: lp.clone(),
            mode,
            signal: signal.cloned(),
            calls: RefCell::new(Calls::default()),
            hold: RefCell::new(Hold::default()),
        }))
    }
}

/// The ids a valid prepare reads, in order: the distinct sessionIds of `references` in
/// first-mention order; empty when the references are not valid (not an array, an element
/// that is no object or has no string sessionId, a label that is not a string, a reference to
/// the agent itself, more sources than `max_references`), as the contract then reads nothing.
pub fn normalized_sources(agent_id: &JsString, references: &Value, max_references: u64) -> Vec<JsString> {
    let Value::Array(list) = references else { return Vec::new() };
    let mut ids: Vec<JsString> = Vec::new();
    for r in list {
        let Some(o) = r.as_object() else { return Vec::new() };
        let Some(id) = o.get("sessionId").as_str() else { return Vec::new() };
        if !matches!(o.get("label"), Value::Undefined | Value::String(_)) || id == agent_id {
            return Vec::new();
        }
        if !ids.contains(id) {
            ids.push(id.clone());
        }
    }
    if ids.len() as u64 > max_references {
        return Vec::new();
    }
    ids
}

/// Which call a cancel mode holds (Query::arm).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum HoldCall {
    /// The request's first call, whatever it is (a candidates' listing).
    #[default]
    First,
    /// The read of this session (a prepare's first normalized source).
    Read(JsString),
    /// None (a prepare that reads nothing).
    Nothing,
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    DuringRead,
    AtCall,
    Other,
}

/// The state of the cancel mode's rule: the held call, and the other calls' outcomes.
#[derive(Default)]
struct Hold {
    call: HoldCall,
    others: usize,
    held: bool,
    started: usize,
    succeeded: usize,
    failed: bool,
    /// at-call: settlements of calls made before the held one, queued at its abort.
    gated: Vec<Box<dyn FnOnce()>>,
}

/// The calls a request's session query recorded.
#[derive(Default, Debug, Clone)]
pub struct Calls {
    pub count: usize,
    pub lists: usize,
    pub title_reads: Vec<JsString>,
    pub reads: Vec<JsString>,
}

struct QueryState {
    world: World,
    lp: Loop,
    mode: Mode,
    signal: Option<Signal>,
    calls: RefCell<Calls>,
    hold: RefCell<Hold>,
}

/// The fake ctx.sessionQuery of one request (spec/protocol.md): it records each call as it is
/// made; its settlements are microtasks of the request's loop; the cancel mode decides, in
/// `held` and `settle`, which call never settles and when the signal aborts, by what the calls
/// see (spec/protocol.md, "cancel"), never by the loop's scheduling:
///
/// - "at-call": the held call aborts the signal as it is made, and never settles; every other
///   call settles only after that abort (one made earlier waits for the held call);
/// - "during-read": the held call never settles; the signal aborts as soon as the held call
///   has been made and the other calls (`arm`'s `others`) have settled successfully (at once,
///   in a microtask, when there are none), and never once another call has failed.
///
/// Backstops for a port that waits for the held call alone are idle tasks of the loop (run
/// when nothing else can). Its futures are ready only on the kit's loop: await them in the
/// port's async code, never block on them.
#[derive(Clone)]
pub struct Query(Rc<QueryState>);

fn string(o: &Object, key: &str) -> Option<JsString> {
    o.get(key).as_str().cloned()
}

impl Query {
    /// Names the held call before the port runs, and the number of other reads
    /// "during-read" waits for (one per other normalized source of a prepare).
    pub fn arm(&self, call: HoldCall, others: usize) {
        let mut h = self.0.hold.borrow_mut();
        h.call = call;
        h.others = others;
    }

    /// Whether this call (a read of `id`, or another call when None) is the held one; if so,
    /// at-call aborts now and opens the calls waiting for it, and during-read decides in a
    /// microtask (once the call has returned its future).
    fn held(&self, id: Option<&JsString>) -> bool {
        self.0.calls.borrow_mut().count += 1;
        if self.0.mode == Mode::Other {
            return false;
        }
        let gated = {
            let mut h = self.0.hold.borrow_mut();
            let this = match &h.call {
                HoldCall::First => true,
                HoldCall::Read(r) => id == Some(r),
                HoldCall::Nothing => false,
            };
            if h.held || !this {
                return false;
            }
            h.held = true;
            std::mem::take(&mut h.gated)
        };
        let signal = self.0.signal.clone().expect("a cancel mode has a signal");
        if self.0.mode == Mode::AtCall {
            signal.abort();
            for t in gated {
                self.0.lp.micro(t);
            }
        } else {
            let q = self.clone();
            self.0.lp.micro(move || q.decide());
            let q = self.clone();
            self.0.lp.idle(move || q.backstop());
        }
        true
    }

    /// The rule: the held call made, and every other read settled successfully.
    fn decide(&self) {
        let abort = {
            let h = self.0.hold.borrow();
            h.held && !h.failed && h.succeeded >= h.others
        };
        if abort {
            self.0.signal.as_ref().expect("a cancel mode has a signal").abort();
        }
    }

    /// The backstop: nothing else can run, and the held call was made.
    fn backstop(&self) {
        if self.0.hold.borrow().held {
            self.0.signal.as_ref().expect("a cancel mode has a signal").abort();
        }
    }

    fn settle<U: 'static>(&self, held: bool, outcome: impl FnOnce() -> Result<U, QueryError> + 'static) -> Settle<Result<U, QueryError>> {
        let (f, s) = Settle::new();
        if held {
            return f; // never settles
        }
        let counted = self.0.mode == Mode::DuringRead;
        let q = self.clone();
        let task = move || {
            let v = outcome();
            if counted {
                let mut h = q.0.hold.borrow_mut();
                match &v {
                    Ok(_) => h.succeeded += 1,
                    Err(_) => h.failed = true, // before the port can see it: no abort follows
                }
            }
            s.settle(v);
            if counted {
                q.decide();
            }
        };
        if counted {
            self.0.hold.borrow_mut().started += 1;
        }
        {
            let mut h = self.0.hold.borrow_mut();
            if self.0.mode == Mode::AtCall && h.call != HoldCall::Nothing && !h.held {
                // at-call: settles once the held call has aborted (at the backstop, for a port
                // that never makes it), as every outcome follows the abort in the seed.
                if h.gated.is_empty() {
                    let q = self.clone();
                    self.0.lp.idle(move || {
                        let open = std::mem::take(&mut q.0.hold.borrow_mut().gated);
                        for t in open {
                            q.0.lp.micro(t);
                        }
                    });
                }
                h.gated.push(Box::new(task));
                return f;
            }
        }
        self.0.lp.micro(task);
        f
    }

    /// listSessions(signal): every session as a record, or the listing's failure.
    pub fn list_sessions(&self, _signal: Option<&Signal>) -> Settle<Result<Vec<SessionRecord>, QueryError>> {
        self.0.calls.borrow_mut().lists += 1;
        let w = self.0.world.clone();
        self.settle(self.held(None), move || {
            if let Some(e) = &w.list_error {
                return Err(QueryError(e.clone()));
            }
            Ok(w.sessions
                .iter()
                .map(|s| SessionRecord { header: header(s.get("header"), "header").expect("checked"), live: false, persisted: true })
                .collect())
        })
    }

    /// readTitleSnapshots(ids, signal): one settlement per unique id, in first-occurrence
    /// order; an unknown id settles rejected.
    pub fn read_title_snapshots(&self, ids: &[JsString], _signal: Option<&Signal>) -> Settle<Result<Vec<TitleSettlement>, QueryError>> {
        self.0.calls.borrow_mut().title_reads.extend(ids.iter().cloned());
        let w = self.0.world.clone();
        let ids = ids.to_vec();
        self.settle(self.held(None), move || {
            let mut seen: Vec<&JsString> = Vec::new();
            let mut out = Vec::new();
            for id in &ids {
                if seen.contains(&id) {
                    continue;
                }
                seen.push(id);
                let outcome = match w.find(id) {
                    None => Err(QueryError("session not found".into())),
                    Some(s) => match string(s, "titleError") {
                        Some(e) => Err(QueryError(e)),
                        None => Ok((header(s.get("header"), "header").expect("checked"), string(s, "title"))),
                    },
                };
                out.push(TitleSettlement { session_id: id.clone(), outcome });
            }
            Ok(out)
        })
    }

    /// readSurface(id): the session's current surface, or the read's failure.
    pub fn read_surface(&self, id: &JsString) -> Settle<Result<Surface, QueryError>> {
        self.0.calls.borrow_mut().reads.push(id.clone());
        let w = self.0.world.clone();
        let held = self.held(Some(id));
        let id = id.clone();
        self.settle(held, move || {
            let s = w.find(&id).ok_or_else(|| {
                let mut m = JsString::from("session ");
                m.push_str(&quote(&id));
                m.push_str(" not found");
                QueryError(m)
            })?;
            if let Some(e) = string(s, "readError") {
                return Err(QueryError(e));
            }
            let (seq, events) = match s.get("surface") {
                Value::Object(so) => (
                    match so.get("capturedThroughSeq") {
                        Value::Undefined => Value::Null,
                        v => v.clone(),
                    },
                    match so.get("events") {
                        Value::Array(a) => a.clone(),
                        _ => Vec::new(),
                    },
                ),
                _ => (Value::Null, Vec::new()),
            };
            Ok(Surface { session: header(s.get("header"), "header").expect("checked"), captured_through_seq: seq, events })
        })
    }

    /// The calls made so far.
    pub fn calls(&self) -> Calls {
        self.0.calls.borrow().clone()
    }
}
