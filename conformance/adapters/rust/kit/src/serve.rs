//! The line protocol: one JSON request per line on stdin, one response per line on stdout.

use crate::exec::{Loop, Signal};
use crate::world::{normalized_sources, HoldCall};
use crate::json::{parse, quote, stringify, JsString, Object, Value};
use crate::world::{header, World};
use crate::{Agent, Error, Port, Service};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};

/// The protocol's bound on a line, in bytes (64 MiB).
pub const MAX_LINE: usize = 64 << 20;

/// The protocol adapter over a port.
pub struct Adapter<P: Port> {
    port: P,
    worlds: HashMap<JsString, World>,
    /// The bound on a request line (tests lower it).
    pub max_line: usize,
}

/// Serves port on stdin and stdout until stdin ends. The requests are answered on a thread
/// with a 1 GiB stack (reserved, not committed), so JSON nested 10,000 deep, which the
/// protocol allows, overflows neither the kit's recursion nor the port's.
pub fn serve<P: Port + Send + 'static>(port: P) {
    let worker = std::thread::Builder::new().name("sessionref-adapter".into()).stack_size(1 << 30).spawn(move || {
        let stdin = std::io::stdin();
        let stdout = std::io::stdout();
        Adapter::new(port).serve(stdin.lock(), stdout.lock())
    });
    let result = match worker {
        Ok(handle) => handle.join().unwrap_or_else(|_| Err(std::io::Error::other("the adapter thread panicked"))),
        Err(e) => Err(e),
    };
    if let Err(e) = result {
        eprintln!("adapter: {}", e);
        std::process::exit(1);
    }
}

fn arr(v: Vec<JsString>) -> Value {
    Value::Array(v.into_iter().map(Value::String).collect())
}

fn failure(id: Value, code: Option<&str>, message: &str, extra: Option<Object>) -> JsString {
    let mut err = Object::new()
        .with("code", code.map(Value::from).unwrap_or(Value::Null))
        .with("message", message);
    if let Some(x) = extra {
        err.0.extend(x.0);
    }
    stringify(&Value::Object(Object::new().with("id", id).with("ok", false).with("error", err))).expect("an object")
}

fn need<'a>(args: &'a Object, key: &str) -> Result<&'a Value, Error> {
    if !args.has(key) {
        return Err(Error::protocol(format!("missing required argument {:?}", key)));
    }
    Ok(args.get(key))
}

/// Reads an agent {id, cwd?}.
pub fn agent(v: &Value) -> Result<Agent, Error> {
    let o = v.as_object().ok_or_else(|| Error::protocol("agent: not an object"))?;
    let id = o.get("id").as_str().ok_or_else(|| Error::protocol("agent: id is not a string"))?.clone();
    let cwd = match o.get("cwd") {
        Value::Undefined => None,
        Value::String(s) => Some(s.clone()),
        _ => return Err(Error::protocol("agent: cwd is not a string")),
    };
    Ok(Agent { id, cwd })
}

fn signal(mode: &Value) -> Result<Option<Signal>, Error> {
    let m = match mode {
        Value::Undefined => return Ok(None),
        Value::String(s) => s.to_string_lossy(),
        _ => String::new(),
    };
    if !["before", "during-read", "at-call", "never"].contains(&m.as_str()) {
        return Err(Error::unsupported(format!("unsupported cancel mode {}", stringify(mode).map(|s| s.to_string_lossy()).unwrap_or_default())));
    }
    let s = Signal::new();
    if m == "before" {
        s.abort();
    }
    Ok(Some(s))
}

fn without_id(m: &Object) -> Object {
    m.without("id")
}

impl<P: Port> Adapter<P> {
    /// An adapter for port.
    pub fn new(port: P) -> Self {
        Adapter { port, worlds: HashMap::new(), max_line: MAX_LINE }
    }

    /// Answers every request line of r on w, until r ends.
    pub fn serve(&mut self, r: impl Read, mut w: impl Write) -> std::io::Result<()> {
        let mut r = BufReader::with_capacity(1 << 16, r);
        loop {
            let mut line = Vec::new();
            let mut too_long = false;
            let mut ended = false;
            loop {
                let buf = r.fill_buf()?;
                if buf.is_empty() {
                    ended = true;
                    break;
                }
                let (chunk, found) = match buf.iter().position(|&b| b == b'\n') {
                    Some(i) => (&buf[..i], Some(i)),
                    None => (buf, None),
                };
                if line.len() + chunk.len() > self.max_line {
                    too_long = true;
                } else {
                    line.extend_from_slice(chunk);
                }
                let used = found.map(|i| i + 1).unwrap_or(buf.len());
                r.consume(used);
                if found.is_some() {
                    break;
                }
            }
            if ended && line.is_empty() && !too_long {
                return Ok(());
            }
            let response = if too_long {
                failure(Value::Null, Some("ADAPTER_PROTOCOL"), &format!("request line longer than {} bytes", self.max_line), None)
            } else {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if line.is_empty() {
                    if ended {
                        return Ok(());
                    }
                    continue;
                }
                self.answer(&line)
            };
            let text = String::from_utf16(&response.0).expect("responses escape lone surrogates");
            w.write_all(text.as_bytes())?;
            w.write_all(b"\n")?;
            w.flush()?;
            if ended {
                return Ok(());
            }
        }
    }

    /// The response line to one request line.
    pub fn answer(&mut self, line: &[u8]) -> JsString {
        // std's UTF-8 check rejects surrogate bytes (ED A0 80): a lone surrogate travels only as an escape.
        let Ok(text) = std::str::from_utf8(line) else {
            return failure(Value::Null, Some("ADAPTER_PROTOCOL"), "request line is not UTF-8", None);
        };
        let req = match parse(&JsString::from(text)) {
            Ok(v) => v,
            Err(e) => return failure(Value::Null, Some("ADAPTER_PROTOCOL"), &format!("request is not JSON: {}", e), None),
        };
        let Value::Object(r) = req else {
            return failure(Value::Null, Some("ADAPTER_PROTOCOL"), "request must be an object with a string op", None);
        };
        let id = if r.has("id") { r.get("id").clone() } else { Value::Null };
        let Some(op) = r.get("op").as_str().map(|s| s.to_string_lossy()) else {
            return failure(id, Some("ADAPTER_PROTOCOL"), "request must be an object with a string op", None);
        };
        let args = match r.get("args") {
            Value::Undefined => Object::new(),
            Value::Object(o) => o.clone(),
            _ => return failure(id, Some("ADAPTER_PROTOCOL"), "args must be an object", None),
        };
        let mut extra = Object::new();
        let line = match self.handle(&op, &args, &mut extra) {
            Ok(result) => stringify(&Value::Object(Object::new().with("id", id.clone()).with("ok", true).with("result", result))).expect("an object"),
            Err(e) => {
                let unsupported = e.code.as_deref() == Some("ADAPTER_UNSUPPORTED");
                failure(id.clone(), e.code.as_deref(), &e.message, if unsupported { None } else { Some(extra) })
            }
        };
        if line.utf8_len() >= MAX_LINE {
            return failure(id, Some("ADAPTER_UNSUPPORTED"), "the answer is longer than the protocol's 64 MiB line", None);
        }
        line
    }

    fn world(&self, v: &Value) -> Result<World, Error> {
        if let Value::Object(o) = v {
            if o.has("$ref") {
                let key = match o.get("$ref") {
                    Value::String(k) if o.0.len() == 1 => k,
                    _ => return Err(Error::protocol("a world reference is {\"$ref\": KEY} with a string KEY and no other key")),
                };
                return self.worlds.get(key).cloned().ok_or_else(|| Error::protocol(format!("no world defined under {} (world.define it first)", quote(key))));
            }
        }
        World::of(v)
    }

    fn handle(&mut self, op: &str, args: &Object, extra: &mut Object) -> Result<Value, Error> {
        let s = |r: Result<JsString, Error>| r.map(Value::String);
        match op {
            "hello" => {
                if args.get("protocol") != &Value::Number(1.0) {
                    return Err(Error::protocol("unsupported protocol; this adapter speaks protocol 1"));
                }
                let mut features: Vec<Value> = vec!["lone-surrogates".into(), "world-cache".into()];
                if self.port.host() {
                    features.push("host".into());
                }
                Ok(Object::new()
                    .with("protocol", 1.0)
                    .with("name", self.port.name().as_str())
                    .with("version", self.port.version().as_str())
                    .with("spec", self.port.profile().as_str())
                    .with("features", features)
                    .into())
            }
            "uri.encode" => s(self.port.encode_uri(args.get("sessionId"))),
            "uri.decode" => s(self.port.decode_uri(args.get("uri"))),
            "mention.format" => s(self.port.format_mention(args.get("sessionId"), args.get("label"))),
            "mention.parse" => {
                let p = self.port.parse_mentions(args.get("text"))?;
                let refs: Vec<Value> = p
                    .references
                    .into_iter()
                    .map(|m| Object::new().with("sessionId", m.session_id).with("label", m.label).into())
                    .collect();
                Ok(Object::new().with("text", p.text).with("references", refs).into())
            }
            "config" => {
                let w = World::of(&Object::new().with("sessions", Vec::<Value>::new()).into())?;
                let c = self.port.new_service(w.query(&Loop::new(), &Value::Undefined, None), args.get("config"))?.config();
                Ok(Object::new()
                    .with("maxReferences", c.max_references as f64)
                    .with("candidateLimit", c.candidate_limit as f64)
                    .with("maxReferenceBytes", c.max_reference_bytes as f64)
                    .into())
            }
            "world.define" => {
                let key = need(args, "key")?.as_str().ok_or_else(|| Error::protocol("world.define: key is not a string"))?.clone();
                let doc = need(args, "world")?;
                if doc.as_object().map(|o| o.has("$ref")).unwrap_or(false) {
                    return Err(Error::protocol("world.define: the world is a reference"));
                }
                let w = World::of(doc)?;
                self.worlds.insert(key.clone(), w);
                Ok(Object::new().with("key", key).into())
            }
            "candidates" => {
                let agent = agent(need(args, "agent")?)?;
                let mode = args.get("cancel");
                let signal = signal(mode)?;
                let w = self.world(need(args, "world")?)?;
                let lp = Loop::new();
                let q = w.query(&lp, mode, signal.as_ref());
                let svc = self.port.new_service(q.clone(), args.get("config"))?;
                let out = lp.run(svc.list_candidates(&agent, args.get("query"), args.get("limit"), signal.as_ref()));
                let out = out.unwrap_or_else(|| Err(Error::plain("listCandidates never settled")));
                let list = match out {
                    Ok(l) => l,
                    Err(e) => {
                        extra.set("lists", Value::Number(q.calls().lists as f64));
                        return Err(e);
                    }
                };
                let cands: Vec<Value> = list
                    .into_iter()
                    .map(|c| {
                        let mut o = Object::new().with("sessionId", c.session_id).with("label", c.label);
                        if let Some(cwd) = c.cwd {
                            o.set("cwd", cwd.into());
                        }
                        o.with("createdAt", c.created_at).into()
                    })
                    .collect();
                Ok(Object::new().with("candidates", cands).with("titleReads", arr(q.calls().title_reads)).into())
            }
            "prepare" => {
                extra.set("reads", Value::Array(Vec::new()));
                let agent = agent(need(args, "agent")?)?;
                let mode = args.get("cancel");
                let signal = signal(mode)?;
                let w = self.world(need(args, "world")?)?;
                let lp = Loop::new();
                let q = w.query(&lp, mode, signal.as_ref());
                let result = match self.port.new_service(q.clone(), args.get("config")) {
                    Ok(svc) => {
                        // The held call is the read of the first normalized source, and the
                        // other sources' reads are counted: known once the service is.
                        let sources = normalized_sources(&agent.id, args.get("references"), svc.config().max_references);
                        let hold = sources.first().map_or(HoldCall::Nothing, |id| HoldCall::Read(id.clone()));
                        q.arm(hold, sources.len().saturating_sub(1));
                        lp.run(svc.prepare(&agent, args.get("content"), args.get("references"), signal.as_ref()))
                            .unwrap_or_else(|| Err(Error::plain("prepare never settled")))
                    }
                    Err(e) => Err(e),
                };
                extra.set("reads", arr(q.calls().reads));
                let p = result?;
                let mut out = Object::new();
                if p.content != Value::Undefined {
                    out.set("content", p.content);
                }
                out.set("additionalContext", p.additional_context.map(|m| without_id(&m).into()).unwrap_or(Value::Null));
                out.set("reads", arr(q.calls().reads));
                Ok(out.into())
            }
            "host.send" if self.port.host() => self.host_send(args),
            _ => Err(Error::unsupported(format!("unsupported op {:?}", op))),
        }
    }

    /// host.send: the port's deliver says what a host enqueues; the kit keeps the target's
    /// inbox, steps it, and reads its log before and after the mutations.
    fn host_send(&mut self, args: &Object) -> Result<Value, Error> {
        let agent = agent(args.get("agent"))?;
        let mut w = self.world(need(args, "world")?)?;
        let text = args.get("text").as_str().ok_or_else(|| Error::protocol("text is not a string"))?.clone();
        let running = match args.get("running") {
            Value::Undefined | Value::Null => false,
            Value::Bool(b) => *b,
            _ => return Err(Error::protocol("running is not a boolean")),
        };
        let context_first = self.port.profile() == "0.0.1-rc.1";
        let lp = Loop::new();
        let svc = self.port.new_service(w.query(&lp, &Value::Undefined, None), args.get("config"))?;
        let mut pending: Vec<Value> = Vec::new();
        if running && !context_first {
            // 0.1.0-rc.8 parses and prepares in the step that claims the inbox: until then the
            // direct message waits as typed (SR-HOST-8).
            let block: Value = Object::new().with("type", "text").with("text", text.clone()).into();
            pending.push(Object::new().with("source", Object::new().with("kind", "user")).with("content", vec![block]).with("role", "user").into());
        }
        let messages = lp.run(self.port.deliver(&svc, &agent, &text)).unwrap_or_else(|| Err(Error::plain("deliver never settled")))?;
        let frozen = |ms: &[Object]| -> Vec<Value> {
            ms.iter().map(|m| parse(&stringify(&without_id(m).into()).expect("an object")).expect("JSON")).collect()
        };
        let log = frozen(&messages); // written when the target steps
        if running && context_first {
            pending = frozen(&messages);
        }
        mutate(&mut w, args.get("mutations"))?;
        Ok(Object::new().with("pending", pending).with("log", log).with("replay", frozen(&messages)).into())
    }
}

/// Applies host.send's mutations (append, compact, delete) to the request's copy of a world.
pub(crate) fn mutate(w: &mut World, mv: &Value) -> Result<(), Error> {
    let list = match mv {
        Value::Undefined | Value::Null => return Ok(()),
        Value::Array(a) => a,
        _ => return Err(Error::protocol("mutations is not an array")),
    };
    let sessions = std::rc::Rc::make_mut(&mut w.sessions);
    for m in list {
        let o = m.as_object().ok_or_else(|| Error::protocol("a mutation is {op, sessionId, …}"))?;
        let id = o.get("sessionId").as_str().ok_or_else(|| Error::protocol("a mutation is {op, sessionId, …}"))?;
        let at = sessions
            .iter()
            .position(|s| header(s.get("header"), "header").map(|h| &h.id == id).unwrap_or(false))
            .ok_or_else(|| Error::protocol(format!("mutation names unknown session {}", quote(id))))?;
        let op = o.get("op").as_str().map(|s| s.to_string_lossy()).unwrap_or_default();
        if op == "delete" {
            sessions.remove(at);
            continue;
        }
        let s = &mut sessions[at];
        let mut surface = match s.get("surface") {
            Value::Object(so) => so.clone(),
            _ => Object::new().with("capturedThroughSeq", Value::Null).with("events", Vec::<Value>::new()),
        };
        let mut events = match surface.get("events") {
            Value::Array(a) => a.clone(),
            _ => Vec::new(),
        };
        match (op.as_str(), o.get("events")) {
            ("append", Value::Array(add)) => events.extend(add.iter().cloned()),
            ("compact", _) => {
                let src = Object::new().with("kind", "plugin").with("plugin", "compact").with("compactionId", "c-mutation");
                let block: Value = Object::new().with("type", "text").with("text", o.get("summary").clone()).into();
                let data = Object::new().with("id", "m-compact").with("role", "user").with("content", vec![block]).with("source", src);
                events = vec![Object::new().with("type", "user/message").with("seq", 0.0).with("data", data).into()];
            }
            _ => return Err(Error::protocol(format!("bad mutation {}", stringify(m).map(|s| s.to_string_lossy()).unwrap_or_default()))),
        }
        surface.set("events", Value::Array(events));
        s.set("surface", surface.into());
    }
    Ok(())
}
