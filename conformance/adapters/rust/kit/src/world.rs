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

    /// The session-query service of one request over this world (see Query).
    pub fn query(&self, lp: &Loop, cancel: &Value, signal: Option<&Signal>) -> Query {
        Query(Rc::new(QueryState {
            world: self.clone(),
            lp: lp.clone(),
            cancel: cancel.clone(),
            signal: signal.cloned(),
            calls: RefCell::new(Calls::default()),
        }))
    }
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
    cancel: Value,
    signal: Option<Signal>,
    calls: RefCell<Calls>,
}

/// The fake ctx.sessionQuery of one request (spec/protocol.md): it records each call as it is
/// made; its settlements are microtasks of the request's loop; the cancel mode decides, in
/// `held`, which call never settles and when the signal aborts. Its futures are ready only on
/// the kit's loop: await them in the port's async code, never block on them.
#[derive(Clone)]
pub struct Query(Rc<QueryState>);

fn string(o: &Object, key: &str) -> Option<JsString> {
    o.get(key).as_str().cloned()
}

impl Query {
    /// The cancel modes, keyed on the calls the fake receives (spec/protocol.md, "cancel"): the
    /// request's first call is held for "during-read" and "at-call", every other call
    /// settles. "at-call" aborts inside the call, before it returns; "during-read" aborts in a
    /// macrotask, so once every other call has settled and the port has run what it does with
    /// their outcomes, as a JavaScript timer runs after the promise reactions. Returns whether
    /// this call is held (never settles).
    fn held(&self) -> bool {
        let first = {
            let mut c = self.0.calls.borrow_mut();
            c.count += 1;
            c.count == 1
        };
        let Some(signal) = self.0.signal.clone() else { return false };
        if !first {
            return false;
        }
        match self.0.cancel.as_str().map(|s| s.to_string_lossy()).as_deref() {
            Some("at-call") => {
                signal.abort();
                true
            }
            Some("during-read") => {
                self.0.lp.macro_task(move || signal.abort());
                true
            }
            _ => false,
        }
    }

    fn settle<T: 'static>(&self, held: bool, outcome: impl FnOnce() -> T + 'static) -> Settle<T> {
        let (f, s) = Settle::new();
        if !held {
            self.0.lp.micro(move || s.settle(outcome()));
        }
        f
    }

    /// listSessions(signal): every session as a record, or the listing's failure.
    pub fn list_sessions(&self, _signal: Option<&Signal>) -> Settle<Result<Vec<SessionRecord>, QueryError>> {
        self.0.calls.borrow_mut().lists += 1;
        let w = self.0.world.clone();
        self.settle(self.held(), move || {
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
        self.settle(self.held(), move || {
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
        let id = id.clone();
        self.settle(self.held(), move || {
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
