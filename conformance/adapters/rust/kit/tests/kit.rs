//! The kit's own tests: cargo test --offline.

use sessionref_kit::json::{parse_str, quote};
use sessionref_kit::*;
use std::future::Future;

fn js(s: &str) -> JsString {
    JsString::from(s)
}

/// Number::toString against Node's, on every line of the Java kit's numbers.txt (written by
/// its gen-numbers.mjs).
#[test]
fn numbers_as_node_writes_them() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../java/test/numbers.txt")).expect("numbers.txt");
    let mut n = 0;
    let mut bad = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let (bits, want) = line.split_once('\t').expect("bits\ttext");
        let d = f64::from_bits(u64::from_str_radix(bits, 16).expect("hex"));
        if number_to_string(d) != want {
            bad.push(format!("{}: want {}, got {}", bits, want, number_to_string(d)));
        }
        n += 1;
    }
    assert!(n > 7000, "numbers.txt has {} numbers", n);
    assert!(bad.is_empty(), "{} of {} differ: {:?}", bad.len(), n, &bad[..bad.len().min(10)]);
    assert_eq!(number_to_string(-0.0), "0");
    assert_eq!(number_to_string(f64::NAN), "NaN");
}

#[test]
fn stringify_as_javascript() {
    let lone = JsString(vec![0xD800, b'x' as u16, 0xDC00]);
    assert_eq!(quote(&lone), "\"\\ud800x\\udc00\"");
    assert_eq!(quote(&js("\u{1F600}")), "\"\u{1F600}\"");
    assert_eq!(quote(&js("\u{0}\u{1f}\u{8}\u{c}\n\r\t\"\\\u{2028}\u{2029}<>&\u{7f}/")), "\"\\u0000\\u001f\\b\\f\\n\\r\\t\\\"\\\\\u{2028}\u{2029}<>&\u{7f}/\"");
    let v: Value = Object::new()
        .with("b", 1.0)
        .with("u", Value::Undefined)
        .with("a", vec![Value::Undefined, Value::Number(f64::NAN), true.into(), (-5e-7).into(), 1e21.into()])
        .into();
    assert_eq!(stringify(&v).unwrap().to_string_lossy(), "{\"b\":1,\"a\":[null,null,true,-5e-7,1e+21]}");
    assert!(stringify(&Value::Undefined).is_none());
    assert_eq!(JsString(vec![0xD800]).utf8_len(), 3);
    assert_eq!(js("\u{1F600}").utf8_len(), 4);
}

#[test]
fn parse_as_javascript() {
    assert_eq!(parse_str("\"\\ud800\"").unwrap(), Value::String(JsString(vec![0xD800])));
    assert!(matches!(parse_str("-0").unwrap(), Value::Number(d) if d == 0.0 && d.is_sign_negative()));
    assert_eq!(parse_str("1e400").unwrap(), Value::Number(f64::INFINITY));
    assert_eq!(parse_str("9007199254740993").unwrap(), Value::Number(9007199254740992.0));
    let o = parse_str(" {\"z\":1, \"a\":{\"k\":[]}} ").unwrap();
    assert_eq!(stringify(&o).unwrap().to_string_lossy(), "{\"z\":1,\"a\":{\"k\":[]}}");
    // JavaScript's property order: array indices ascending first, then the others as set
    // (TRAP-JSON-KEY-ORDER); as Node 20 writes JSON.parse of the text.
    let o = parse_str(r#"{"b":1,"10":2,"9":3,"-1":4,"01":5,"4294967295":6,"4294967294":7,"a":{"y":1,"0":2}}"#).unwrap();
    assert_eq!(stringify(&o).unwrap().to_string_lossy(), r#"{"9":3,"10":2,"4294967294":7,"b":1,"-1":4,"01":5,"4294967295":6,"a":{"0":2,"y":1}}"#);
    for bad in ["01", "[1,]", "{\"a\":1,}", "\"\\x\"", "\"\u{1}\"", "\u{feff}1", "\"\\u00zz\"", "1 2", "", "\"\\u\u{FF21}000\"", "nul", "-", "1."] {
        assert!(parse_str(bad).is_err(), "JSON.parse rejects {:?}", bad);
    }
}

/// A port whose operations say what the protocol tests need.
struct TestPort;

struct TestService(Query);

impl Service for TestService {
    fn config(&self) -> Config {
        Config { max_references: 3, candidate_limit: 50, max_reference_bytes: 65536 }
    }
    async fn list_candidates(&self, _: &Agent, _: &Value, _: &Value, s: Option<&Signal>) -> Result<Vec<Candidate>, Error> {
        let rs = self.0.list_sessions(s).await.map_err(|e| Error::plain(e.0.to_string_lossy()))?;
        Ok(rs.into_iter().map(|r| Candidate { session_id: r.header.id, label: js("L"), cwd: r.header.cwd, created_at: r.header.created_at }).collect())
    }
    async fn prepare(&self, _: &Agent, content: &Value, _: &Value, _: Option<&Signal>) -> Result<Prepared, Error> {
        self.0.read_surface(&js("x")).await.map_err(|e| Error::plain(e.0.to_string_lossy()))?;
        Ok(Prepared { content: content.clone(), additional_context: None })
    }
}

impl Port for TestPort {
    type Service = TestService;
    fn encode_uri(&self, id: &Value) -> Result<JsString, Error> {
        match id {
            Value::String(s) => {
                let mut out = js("uri:");
                out.push_js(s);
                Ok(out)
            }
            _ => Err(Error::plain("not a string")),
        }
    }
    fn decode_uri(&self, _: &Value) -> Result<JsString, Error> {
        Err(Error::contract(code::INVALID_REFERENCE, "bad"))
    }
    fn format_mention(&self, _: &Value, _: &Value) -> Result<JsString, Error> {
        Err(Error::contract(code::TOO_MANY, "mine"))
    }
    fn parse_mentions(&self, _: &Value) -> Result<Parsed, Error> {
        Err(Error::unsupported("later"))
    }
    fn new_service(&self, q: Query, _: &Value) -> Result<TestService, Error> {
        Ok(TestService(q))
    }
}

fn serve_lines<P: Port>(a: &mut Adapter<P>, input: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    a.serve(input, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.ends_with('\n'), "every response ends in \\n");
    text.lines().map(String::from).collect()
}

#[test]
fn line_protocol() {
    let mut a = Adapter::new(TestPort);
    a.max_line = 200;
    let mut input = Vec::new();
    input.extend_from_slice(
        format!(
            "{}\r\nnot json\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n\n{}",
            r#"{"id":1,"op":"hello","args":{"protocol":1}}"#,
            r#"{"id":2,"op":"uri.encode","args":{"sessionId":"\udc00"}}"#,
            r#"{"id":3,"op":"uri.encode","args":{}}"#,
            r#"{"id":4,"op":"uri.decode","args":{"uri":1}}"#,
            r#"{"id":5,"op":"mention.format","args":{}}"#,
            r#"{"id":6,"op":"mention.parse","args":{}}"#,
            r#"{"id":7,"op":"frobnicate"}"#,
            format!(r#"{{"id":8,"op":"uri.encode","args":{{"sessionId":"{}"}}}}"#, "x".repeat(300)),
            r#"{"id":9,"op":"uri.encode","args":{"sessionId":""#
        )
        .as_bytes(),
    );
    input.extend_from_slice(&[0xED, 0xA0, 0x80]);
    input.extend_from_slice(b"\"}}\n{\"id\":10,\"op\":\"hello\",\"args\":{\"protocol\":2}}");
    let got = serve_lines(&mut a, &input);
    let want = [
        r#"{"id":1,"ok":true,"result":{"protocol":1,"name":"rust-port","version":"0","spec":"0.0.1-rc.1","features":["lone-surrogates","world-cache"]}}"#,
        r#"{"id":null,"ok":false,"error":{"code":"ADAPTER_PROTOCOL","#,
        r#"{"id":2,"ok":true,"result":"uri:\udc00"}"#,
        r#"{"id":3,"ok":false,"error":{"code":null,"#,
        r#"{"id":4,"ok":false,"error":{"code":"SESSION_REFERENCE_INVALID_REFERENCE","#,
        r#"{"id":5,"ok":false,"error":{"code":"SESSION_REFERENCE_TOO_MANY","message":"mine"}}"#,
        r#"{"id":6,"ok":false,"error":{"code":"ADAPTER_UNSUPPORTED","#,
        r#"{"id":7,"ok":false,"error":{"code":"ADAPTER_UNSUPPORTED","#,
        r#"{"id":null,"ok":false,"error":{"code":"ADAPTER_PROTOCOL","message":"request line longer than 200 bytes"}}"#,
        r#"{"id":null,"ok":false,"error":{"code":"ADAPTER_PROTOCOL","message":"request line is not UTF-8"}}"#,
        r#"{"id":10,"ok":false,"error":{"code":"ADAPTER_PROTOCOL","#,
    ];
    assert_eq!(got.len(), want.len(), "one response per request line: {:#?}", got);
    for (g, w) in got.iter().zip(want) {
        assert!(g.starts_with(w), "want {}…, got {}", w, g);
    }
}

const WORLD: &str = r#"{"sessions":[
 {"header":{"id":"a","cwd":"/r","createdAt":1,"extra":true},"title":"A","surface":{"capturedThroughSeq":7,"events":[1]}},
 {"header":{"id":"b","createdAt":2},"title":"B","titleError":"no title","readError":"gone"},
 {"header":{"id":"c","createdAt":3},"title":null,"titleError":null,"surface":null,"readError":null}],
 "listError":null}"#;

fn run<F: Future>(lp: &Loop, f: F) -> F::Output {
    lp.run(f).expect("settles")
}

#[test]
fn world_as_protocol_md_states_it() {
    let w = World::of(&parse_str(WORLD).unwrap()).unwrap();
    let lp = Loop::new();
    let q = w.query(&lp, &Value::Undefined, None);
    let rs = run(&lp, q.list_sessions(None)).unwrap();
    assert_eq!(rs.len(), 3);
    assert_eq!(rs[0].header.cwd, Some(js("/r")));
    assert!(rs[1].header.cwd.is_none() && rs[0].persisted && !rs[0].live);
    assert_eq!(rs[0].header.value.get("extra"), &Value::Bool(true), "headers keep unknown keys");
    let ts = run(&lp, q.read_title_snapshots(&[js("c"), js("a"), js("zz"), js("a"), js("b")], None)).unwrap();
    let ids: Vec<String> = ts.iter().map(|t| t.session_id.to_string_lossy()).collect();
    assert_eq!(ids, ["c", "a", "zz", "b"], "one settlement per unique id, first-occurrence order");
    assert!(matches!(&ts[0].outcome, Ok((_, None))), "a null title is no title");
    assert!(matches!(&ts[1].outcome, Ok((_, Some(t))) if *t == js("A")));
    assert_eq!(ts[2].outcome.as_ref().unwrap_err().0, js("session not found"));
    assert_eq!(ts[3].outcome.as_ref().unwrap_err().0, js("no title"), "titleError wins over title");
    let s = run(&lp, q.read_surface(&js("a"))).unwrap();
    assert_eq!(s.captured_through_seq, Value::Number(7.0));
    assert_eq!(s.events, vec![Value::Number(1.0)]);
    let c = run(&lp, q.read_surface(&js("c"))).unwrap();
    assert!(c.captured_through_seq == Value::Null && c.events.is_empty(), "a null surface reads as no events, seq null");
    assert!(run(&lp, q.read_surface(&js("b"))).is_err());
    assert!(run(&lp, q.read_surface(&js("nope"))).is_err());
    let calls = q.calls();
    assert_eq!(calls.reads, vec![js("a"), js("c"), js("b"), js("nope")]);
    assert_eq!(calls.title_reads.len(), 5);
    assert_eq!(calls.lists, 1);
    let failing = World::of(&parse_str(r#"{"sessions":[],"listError":"down"}"#).unwrap()).unwrap();
    let lp2 = Loop::new();
    assert_eq!(run(&lp2, failing.query(&lp2, &Value::Undefined, None).list_sessions(None)).unwrap_err().0, js("down"));
    for bad in [
        r#"{"sessions":[{"header":{"id":"a","cwd":null,"createdAt":1}}]}"#,
        r#"{"sessions":{}}"#,
        r#"{"sessions":[],"x":1}"#,
        "[]",
        r#"{"sessions":[{"header":{"id":1,"createdAt":1}}]}"#,
    ] {
        let e = World::of(&parse_str(bad).unwrap()).unwrap_err();
        assert_eq!(e.code.as_deref(), Some("ADAPTER_PROTOCOL"), "{}", bad);
    }
}

/// A prepare composed as the seed's (every read started, the first failure at once, raced
/// with the signal), under a cancel mode.
fn prepare(mode: Option<&str>, ids: &[&str]) -> String {
    let w = World::of(
        &parse_str(r#"{"sessions":[{"header":{"id":"a","createdAt":1}},{"header":{"id":"b","createdAt":1},"readError":"b fails"},{"header":{"id":"c","createdAt":1}}]}"#)
            .unwrap(),
    )
    .unwrap();
    let signal = mode.map(|_| Signal::new());
    if mode == Some("before") {
        signal.as_ref().unwrap().abort();
    }
    let lp = Loop::new();
    let m = mode.map(Value::from).unwrap_or(Value::Undefined);
    let q = w.query(&lp, &m, signal.as_ref());
    q.arm(HoldCall::Read(js(ids[0])), ids.len() - 1); // as the adapter arms a prepare
    let out = run(&lp, async {
        if signal.as_ref().map(|s| s.aborted()).unwrap_or(false) {
            return "cancelled".to_string();
        }
        let mut reads = Vec::new();
        let mut in_call = false;
        for (k, id) in ids.iter().enumerate() {
            reads.push(q.read_surface(&js(id)));
            if k == 0 && signal.as_ref().map(|s| s.aborted()).unwrap_or(false) {
                in_call = true;
            }
        }
        let r = match race(all(reads), signal.as_ref()).await {
            Ok(Ok(_)) => "ok".to_string(),
            Ok(Err(e)) => format!("read failed: {}", e.0.to_string_lossy()),
            Err(Aborted) => "cancelled".to_string(),
        };
        format!("{}{}", r, if in_call { " (aborted in the call)" } else { "" })
    });
    let reads: Vec<String> = q.calls().reads.iter().map(|r| r.to_string_lossy()).collect();
    format!("{} reads={:?}", out, reads)
}

#[test]
fn cancel_modes_without_timers() {
    assert_eq!(prepare(Some("during-read"), &["a", "b", "c"]), r#"read failed: b fails reads=["a", "b", "c"]"#, "a failing other read is seen before the abort");
    assert_eq!(prepare(Some("during-read"), &["a", "c"]), r#"cancelled reads=["a", "c"]"#, "the held read never settles; the abort comes");
    assert_eq!(prepare(Some("during-read"), &["b"]), r#"cancelled reads=["b"]"#, "a held read that would fail never fails");
    assert_eq!(prepare(Some("at-call"), &["a", "c"]), r#"cancelled (aborted in the call) reads=["a", "c"]"#);
    assert_eq!(prepare(Some("before"), &["a"]), "cancelled reads=[]");
    assert_eq!(prepare(Some("never"), &["a", "c"]), r#"ok reads=["a", "c"]"#);
    assert_eq!(prepare(None, &["b"]), r#"read failed: b fails reads=["b"]"#);
}

fn cancel_world(lp: &Loop, mode: &str, signal: &Signal, hold: &str, others: usize) -> Query {
    let w = World::of(
        &parse_str(r#"{"sessions":[{"header":{"id":"a","createdAt":1}},{"header":{"id":"b","createdAt":1},"readError":"b fails"},{"header":{"id":"c","createdAt":1}}]}"#)
            .unwrap(),
    )
    .unwrap();
    let q = w.query(lp, &Value::from(mode), Some(signal));
    q.arm(HoldCall::Read(js(hold)), others);
    q
}

// The rule counts the other reads and their outcomes (spec/protocol.md, cancel): these failed
// when the kit aborted in a macrotask once nothing else was queued, and held the first call.
#[test]
fn during_read_aborts_as_the_last_other_read_succeeds() {
    let (lp, signal) = (Loop::new(), Signal::new());
    let q = cancel_world(&lp, "during-read", &signal, "a", 1);
    let seen = run(&lp, async {
        let _held = q.read_surface(&js("a"));
        let c = q.read_surface(&js("c")).await;
        (c.is_ok(), signal.aborted())
    });
    assert_eq!(seen, (true, true), "the abort comes from the success's settlement, not once the loop is quiet");
}

#[test]
fn during_read_holds_the_first_sources_read_and_never_aborts_after_a_failure() {
    let (lp, signal) = (Loop::new(), Signal::new());
    let q = cancel_world(&lp, "during-read", &signal, "a", 2);
    let seen = run(&lp, async {
        let c = q.read_surface(&js("c")).await; // made first: not the held call
        let _held = q.read_surface(&js("a"));
        let b = q.read_surface(&js("b")).await;
        (c.is_ok(), b.is_err(), signal.aborted())
    });
    assert_eq!(seen, (true, true, false));
}

#[test]
fn at_call_settles_an_earlier_read_after_the_abort() {
    let (lp, signal) = (Loop::new(), Signal::new());
    let q = cancel_world(&lp, "at-call", &signal, "a", 1);
    let seen = run(&lp, async {
        let early = q.read_surface(&js("b"));
        let _held = q.read_surface(&js("a"));
        let b = early.await;
        (b.is_err(), signal.aborted())
    });
    assert_eq!(seen, (true, true));
}

#[test]
fn backstops_end_a_wait_for_the_held_read() {
    // A port that waits for every read after a failure gets the abort once nothing else can run.
    let (lp, signal) = (Loop::new(), Signal::new());
    let q = cancel_world(&lp, "during-read", &signal, "a", 1);
    let out = run(&lp, async {
        let held = q.read_surface(&js("a"));
        let b = q.read_surface(&js("b")).await;
        (b.is_err(), race(held, Some(&signal)).await.is_err())
    });
    assert_eq!(out, (true, true));
}

#[test]
fn a_future_that_can_never_settle_is_reported() {
    let lp = Loop::new();
    let (f, _keep) = exec_settle();
    assert!(lp.run(f).is_none());
}

fn exec_settle() -> (sessionref_kit::exec::Settle<()>, sessionref_kit::exec::Settler<()>) {
    sessionref_kit::exec::Settle::new()
}

/// A host that enqueues what it was told.
struct HostPort;

impl Port for HostPort {
    type Service = TestService;
    fn host(&self) -> bool {
        true
    }
    fn encode_uri(&self, _: &Value) -> Result<JsString, Error> {
        Ok(js(""))
    }
    fn decode_uri(&self, _: &Value) -> Result<JsString, Error> {
        Ok(js(""))
    }
    fn format_mention(&self, _: &Value, _: &Value) -> Result<JsString, Error> {
        Ok(js(""))
    }
    fn parse_mentions(&self, _: &Value) -> Result<Parsed, Error> {
        Err(Error::unsupported(""))
    }
    fn new_service(&self, q: Query, _: &Value) -> Result<TestService, Error> {
        Ok(TestService(q))
    }
    async fn deliver(&self, _: &TestService, _: &Agent, text: &JsString) -> Result<Vec<Object>, Error> {
        let block: Value = Object::new().with("type", "text").with("text", text.clone()).into();
        Ok(vec![
            Object::new().with("source", Object::new().with("kind", "session-reference")).with("role", "user").with("id", "random"),
            Object::new().with("source", Object::new().with("kind", "user")).with("content", vec![block]).with("role", "user"),
        ])
    }
}

#[test]
fn host_send() {
    let mut a = Adapter::new(HostPort);
    let req = concat!(
        r#"{"id":1,"op":"host.send","args":{"world":{"sessions":[{"header":{"id":"s","createdAt":1}}]},"agent":{"id":"me"},"running":true,"text":"hi","mutations":[{"op":"compact","sessionId":"s","summary":"x"},{"op":"delete","sessionId":"s"}]}}"#,
        "\n",
        r#"{"id":2,"op":"host.send","args":{"world":{"sessions":[]},"agent":{"id":"me"},"text":"hi","mutations":[{"op":"delete","sessionId":"s"}]}}"#,
        "\n"
    );
    let got = serve_lines(&mut a, req.as_bytes());
    let msgs = r#"[{"source":{"kind":"session-reference"},"role":"user"},{"source":{"kind":"user"},"content":[{"type":"text","text":"hi"}],"role":"user"}]"#;
    assert_eq!(got[0], format!(r#"{{"id":1,"ok":true,"result":{{"pending":{m},"log":{m},"replay":{m}}}}}"#, m = msgs));
    assert!(got[1].starts_with(r#"{"id":2,"ok":false,"error":{"code":"ADAPTER_PROTOCOL""#), "{}", got[1]);
}

/// JSON nested past the parser's bound is refused, and the adapter goes on.
#[test]
fn deep_nesting() {
    // On a stack as large as serve gives the adapter (a test thread has 2 MiB).
    std::thread::Builder::new().stack_size(1 << 30).spawn(deep_nesting_on_a_large_stack).unwrap().join().unwrap();
}

fn deep_nesting_on_a_large_stack() {
    let mut a = Adapter::new(TestPort);
    let deep = format!("{{\"id\":1,\"op\":\"uri.encode\",\"args\":{{\"sessionId\":{}{}}}}}\n", "[".repeat(20000), "]".repeat(20000));
    let input = format!("{}{}\n", deep, r#"{"id":2,"op":"uri.encode","args":{"sessionId":"a"}}"#);
    let got = serve_lines(&mut a, input.as_bytes());
    assert_eq!(got.len(), 2);
    assert!(got[0].starts_with(r#"{"id":null,"ok":false,"error":{"code":"ADAPTER_PROTOCOL""#), "{}", got[0]);
    assert_eq!(got[1], r#"{"id":2,"ok":true,"result":"uri:a"}"#);
}
