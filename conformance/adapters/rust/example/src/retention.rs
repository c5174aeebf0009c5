//! Projection, the byte cap and truncation (the seed's projection.js, and TextRetainer).

use sessionref_kit::{stringify, Error, JsString, Object, Surface, Value};

/// stringifyTagSafeJson: JSON.stringify with every "<" written \u003c.
pub fn tag_safe(v: &Value) -> JsString {
    let s = stringify(v).expect("a JSON value");
    let mut out = Vec::with_capacity(s.len());
    for &c in s.units() {
        if c == b'<' as u16 {
            out.extend("\\u003c".encode_utf16());
        } else {
            out.push(c);
        }
    }
    JsString(out)
}

#[derive(Clone)]
struct Item {
    role: &'static str,
    text: JsString,
    checkpoint: bool,
    original: JsString,
    omitted_bytes: u64,
    size: usize, // tag-safe UTF-8 bytes of {"role","text"}
}

impl Item {
    fn new(role: &'static str, text: JsString, checkpoint: bool, original: JsString, omitted_bytes: u64) -> Item {
        let size = tag_safe(&Object::new().with("role", role).with("text", text.clone()).into()).utf8_len();
        Item { role, text, checkpoint, original, omitted_bytes, size }
    }
}

/// The retained data of one source and its stats.
pub struct Retained {
    pub data: Object,
    pub compacted: bool,
    pub original_messages: usize,
    pub retained_messages: usize,
    pub omitted_messages: usize,
    pub omitted_bytes: u64,
}

fn type_error(what: &str) -> Error {
    Error::plain(format!("TypeError: {}", what))
}

/// A JavaScript property read: null and undefined throw a TypeError, primitives have none.
fn prop<'a>(v: &'a Value, key: &str) -> Result<&'a Value, Error> {
    match v {
        Value::Null | Value::Undefined => Err(type_error(&format!("Cannot read properties of {:?} (reading '{}')", v, key))),
        Value::Object(o) => Ok(o.get(key)),
        _ => Ok(&Value::Undefined),
    }
}

fn is(v: &Value, s: &str) -> bool {
    v.as_str() == Some(&JsString::from(s))
}

fn text_content(content: &Value) -> Result<JsString, Error> {
    let Value::Array(blocks) = content else { return Err(type_error("content.flatMap is not a function")) };
    let mut out = JsString::default();
    let mut first = true;
    for b in blocks {
        if is(prop(b, "type")?, "text") {
            if let Value::String(t) = prop(b, "text")? {
                if !first {
                    out.push_str("\n");
                }
                first = false;
                out.push_js(t);
            }
        }
    }
    Ok(out)
}

fn project(s: &Surface) -> Result<Vec<Item>, Error> {
    let mut out = Vec::new();
    for e in &s.events {
        let ty = prop(e, "type")?;
        if is(ty, "user/message") {
            let data = prop(e, "data")?;
            let source = prop(data, "source")?;
            let checkpoint = is(prop(source, "kind")?, "plugin") && is(prop(source, "plugin")?, "compact");
            if !checkpoint && !is(prop(source, "kind")?, "user") {
                continue;
            }
            let t = text_content(prop(data, "content")?)?;
            if !t.is_empty() {
                out.push(Item::new("user", t.clone(), checkpoint, t, 0));
            }
        } else if is(ty, "assistant/message") {
            let t = text_content(prop(prop(prop(e, "data")?, "message")?, "content")?)?;
            if !t.is_empty() {
                out.push(Item::new("assistant", t.clone(), false, t, 0));
            }
        } else if !is(ty, "tool/result") {
            return Err(Error::plain("Unexpected session-reference surface event"));
        }
    }
    Ok(out)
}

fn data(s: &Surface, label: &JsString, items: &[Item]) -> Object {
    let conv: Vec<Value> = items.iter().map(|i| Object::new().with("role", i.role).with("text", i.text.clone()).into()).collect();
    Object::new()
        .with("sessionId", s.session.id.clone())
        .with("label", label.clone())
        .with("cwd", s.session.cwd.clone().map(Value::String).unwrap_or(Value::Null))
        .with("capturedThroughSeq", s.captured_through_seq.clone())
        .with("conversation", conv)
}

fn size(base: usize, items: &[Item]) -> u64 {
    (base + items.iter().map(|i| i.size).sum::<usize>() + items.len().saturating_sub(1)) as u64
}

/// retainReferencedSession: the data within max_bytes and its stats, None when it cannot fit.
pub fn retain(s: &Surface, label: &JsString, max_bytes: u64) -> Result<Option<Retained>, Error> {
    let original = project(s)?;
    let mut retained = original.clone();
    let base = tag_safe(&data(s, label, &[]).into()).utf8_len();
    let mut omitted_messages = 0;
    let mut dropped: u64 = 0;
    while size(base, &retained) > max_bytes {
        let newest = retained.len().wrapping_sub(1);
        let Some(drop) = (0..retained.len()).find(|&i| !retained[i].checkpoint && i != newest) else { break };
        let removed = retained.remove(drop);
        omitted_messages += 1;
        dropped += removed.original.utf8_len() as u64;
    }
    while size(base, &retained) > max_bytes {
        let mut longest: Option<usize> = None;
        let mut longest_bytes = 0;
        for (i, it) in retained.iter().enumerate() {
            let b = it.text.utf8_len();
            if b > longest_bytes {
                longest_bytes = b;
                longest = Some(i);
            }
        }
        let Some(li) = longest else { return Ok(None) };
        if longest_bytes == 0 {
            return Ok(None);
        }
        let overflow = size(base, &retained) - max_bytes;
        let target = (longest_bytes as u64).saturating_sub(overflow);
        let it = retained[li].clone();
        let (text, omitted) = truncate(&it.original, target);
        if text == it.text {
            return Ok(None);
        }
        retained[li] = Item::new(it.role, text, it.checkpoint, it.original, omitted);
    }
    let compacted = original.iter().any(|i| i.checkpoint);
    let omitted_bytes = dropped + retained.iter().map(|i| i.omitted_bytes).sum::<u64>();
    Ok(Some(Retained {
        data: data(s, label, &retained),
        compacted,
        original_messages: original.len(),
        retained_messages: retained.len(),
        omitted_messages,
        omitted_bytes,
    }))
}

/// TextDecoder: UTF-8 (valid here) with one leading U+FEFF stripped.
fn decode(b: &[u8]) -> JsString {
    let s = String::from_utf8_lossy(b);
    JsString::from(s.strip_prefix('\u{FEFF}').unwrap_or(&s))
}

/// truncateWithNotice: (text, omittedBytes) by the seed's bisection over TextRetainer.
pub fn truncate(text: &JsString, max: u64) -> (JsString, u64) {
    let bytes = text.to_utf8();
    let total = bytes.len();
    if total as u64 <= max {
        return (text.clone(), 0);
    }
    let (mut low, mut high): (i64, i64) = (0, max as i64);
    let mut best = (JsString::default(), total as u64);
    while low <= high {
        let retained = (low + high) / 2;
        let head = ((retained + 1) / 2) as usize;
        let tail = (retained / 2) as usize;
        let mut p = head.min(total);
        let s_len = (total - p).min(tail);
        let mut s0 = total - s_len;
        if p + s_len < total {
            if p > 0 {
                let mut j = p as i64 - 1;
                let mut back = 0;
                while j >= 0 && (bytes[j as usize] & 0xC0) == 0x80 && back < 3 {
                    j -= 1;
                    back += 1;
                }
                if j >= 0 {
                    let lead = bytes[j as usize];
                    let need = if lead >= 0xF0 { 4 } else if lead >= 0xE0 { 3 } else if lead >= 0xC0 { 2 } else { 1 };
                    if j as usize + need > p {
                        p = j as usize;
                    }
                }
            }
            while s0 < total && (bytes[s0] & 0xC0) == 0x80 {
                s0 += 1;
            }
        }
        let mut kept = decode(&bytes[..p]);
        kept.push_js(&decode(&bytes[s0..]));
        let omitted = (total - p - (total - s0)) as u64;
        let mut candidate = kept;
        candidate.push_str(&format!("\n[… omitted {} UTF-8 bytes …]", omitted));
        if candidate.utf8_len() as u64 <= max {
            best = (candidate, omitted);
            low = retained + 1;
        } else {
            high = retained - 1;
        }
    }
    best
}
