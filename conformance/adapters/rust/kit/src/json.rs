//! JavaScript values and JSON text as JavaScript reads and writes it.

use std::fmt;

/// A JavaScript string: UTF-16 code units, lone surrogates included.
#[derive(Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct JsString(pub Vec<u16>);

impl JsString {
    /// The string's code units.
    pub fn units(&self) -> &[u16] {
        &self.0
    }
    /// The number of code units (JavaScript's length).
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Whether the string is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// The string as Rust text, each lone surrogate replaced by U+FFFD.
    pub fn to_string_lossy(&self) -> String {
        String::from_utf16_lossy(&self.0)
    }
    /// Appends s.
    pub fn push_str(&mut self, s: &str) {
        self.0.extend(s.encode_utf16());
    }
    /// Appends another JsString.
    pub fn push_js(&mut self, s: &JsString) {
        self.0.extend_from_slice(&s.0);
    }
    /// Whether the string starts with prefix at code unit i.
    pub fn starts_with_at(&self, i: usize, prefix: &str) -> bool {
        let p: Vec<u16> = prefix.encode_utf16().collect();
        self.0.len() >= i + p.len() && self.0[i..i + p.len()] == p[..]
    }
    /// Whether needle occurs in the string (String.prototype.includes, by code units).
    pub fn contains(&self, needle: &JsString) -> bool {
        needle.0.is_empty() || self.0.windows(needle.0.len()).any(|w| w == needle.0.as_slice())
    }
    /// The code units from..to as a string.
    pub fn slice(&self, from: usize, to: usize) -> JsString {
        JsString(self.0[from..to].to_vec())
    }
    /// Buffer.byteLength(s, "utf8"): UTF-8 bytes, a lone surrogate counted as U+FFFD (3).
    pub fn utf8_len(&self) -> usize {
        let u = &self.0;
        let mut n = 0;
        let mut i = 0;
        while i < u.len() {
            let c = u[i];
            if c < 0x80 {
                n += 1;
            } else if c < 0x800 {
                n += 2;
            } else if (0xD800..0xDC00).contains(&c) && i + 1 < u.len() && (0xDC00..0xE000).contains(&u[i + 1]) {
                n += 4;
                i += 1;
            } else {
                n += 3;
            }
            i += 1;
        }
        n
    }
    /// TextEncoder: UTF-8 bytes, a lone surrogate as U+FFFD.
    pub fn to_utf8(&self) -> Vec<u8> {
        char::decode_utf16(self.0.iter().copied())
            .map(|r| r.unwrap_or('\u{FFFD}'))
            .collect::<String>()
            .into_bytes()
    }
}

impl From<&str> for JsString {
    fn from(s: &str) -> Self {
        JsString(s.encode_utf16().collect())
    }
}

impl From<String> for JsString {
    fn from(s: String) -> Self {
        JsString(s.encode_utf16().collect())
    }
}

impl fmt::Debug for JsString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&quote(self))
    }
}

/// A JavaScript value as the protocol carries it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// undefined: an absent argument or key.
    Undefined,
    /// null.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number (an IEEE 754 double: -0 and all).
    Number(f64),
    /// A string.
    String(JsString),
    /// An array.
    Array(Vec<Value>),
    /// An object: keys in insertion order (stringify writes them in JavaScript's property
    /// order, array indices first).
    Object(Object),
}

/// A JSON object: keys in insertion order, as a JavaScript object keeps its other keys; its
/// array-index keys ("0" to "4294967294") JavaScript lists first, ascending, and stringify
/// writes them so.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Object(pub Vec<(JsString, Value)>);

impl Object {
    /// An empty object.
    pub fn new() -> Self {
        Object(Vec::new())
    }
    /// Sets key (a key set again keeps its place) and returns the object.
    pub fn with(mut self, key: &str, v: impl Into<Value>) -> Self {
        self.set(key, v.into());
        self
    }
    /// Sets key to v.
    pub fn set(&mut self, key: &str, v: Value) {
        let k = JsString::from(key);
        if let Some(e) = self.0.iter_mut().find(|e| e.0 == k) {
            e.1 = v;
        } else {
            self.0.push((k, v));
        }
    }
    /// The value of key, or Undefined.
    pub fn get(&self, key: &str) -> &Value {
        let k: Vec<u16> = key.encode_utf16().collect();
        self.0.iter().find(|e| e.0 .0 == k).map(|e| &e.1).unwrap_or(&Value::Undefined)
    }
    /// Whether the object has key.
    pub fn has(&self, key: &str) -> bool {
        let k: Vec<u16> = key.encode_utf16().collect();
        self.0.iter().any(|e| e.0 .0 == k)
    }
    /// A copy without key.
    pub fn without(&self, key: &str) -> Object {
        let k: Vec<u16> = key.encode_utf16().collect();
        Object(self.0.iter().filter(|e| e.0 .0 != k).cloned().collect())
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.into())
    }
}
impl From<JsString> for Value {
    fn from(s: JsString) -> Self {
        Value::String(s)
    }
}
impl From<f64> for Value {
    fn from(n: f64) -> Self {
        Value::Number(n)
    }
}
impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}
impl From<Object> for Value {
    fn from(o: Object) -> Self {
        Value::Object(o)
    }
}
impl From<Vec<Value>> for Value {
    fn from(a: Vec<Value>) -> Self {
        Value::Array(a)
    }
}

impl Value {
    /// The string, when the value is one.
    pub fn as_str(&self) -> Option<&JsString> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    /// The object, when the value is one.
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }
    /// Whether the value is null or undefined.
    pub fn is_nullish(&self) -> bool {
        matches!(self, Value::Null | Value::Undefined)
    }
    /// Number.isSafeInteger(v).
    pub fn is_safe_integer(&self) -> bool {
        matches!(self, Value::Number(d) if d.is_finite() && d.trunc() == *d && d.abs() <= 9007199254740991.0)
    }
}

/// JSON.stringify(value) exactly as JavaScript writes it; None for a top-level undefined.
pub fn stringify(v: &Value) -> Option<JsString> {
    if matches!(v, Value::Undefined) {
        return None;
    }
    let mut out = Vec::new();
    write(&mut out, v);
    Some(JsString(out))
}

fn push(out: &mut Vec<u16>, s: &str) {
    out.extend(s.encode_utf16());
}

fn write(out: &mut Vec<u16>, v: &Value) {
    match v {
        Value::Undefined | Value::Null => push(out, "null"),
        Value::Bool(b) => push(out, if *b { "true" } else { "false" }),
        Value::Number(d) => {
            if d.is_finite() {
                push(out, &number_to_string(*d))
            } else {
                push(out, "null")
            }
        }
        Value::String(s) => quote_into(out, s),
        Value::Array(a) => {
            out.push(b'[' as u16);
            for (i, e) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b',' as u16);
                }
                write(out, e);
            }
            out.push(b']' as u16);
        }
        Value::Object(o) => {
            out.push(b'{' as u16);
            let mut first = true;
            for (k, e) in property_order(o) {
                if matches!(e, Value::Undefined) {
                    continue;
                }
                if !first {
                    out.push(b',' as u16);
                }
                first = false;
                quote_into(out, k);
                out.push(b':' as u16);
                write(out, e);
            }
            out.push(b'}' as u16);
        }
    }
}

/// The entries of o in JavaScript's property order: the keys that are array indices
/// ("0" to "4294967294", canonical) ascending first, then the others in insertion order. A
/// request's object is in its text's order ({"b":1,"1":2}); JSON.parse, and so the seed,
/// lists "1" first (TRAP-JSON-KEY-ORDER).
fn property_order(o: &Object) -> Vec<(&JsString, &Value)> {
    let mut entries: Vec<(&JsString, &Value)> = o.0.iter().map(|(k, v)| (k, v)).collect();
    if entries.iter().any(|(k, _)| array_index(k).is_some()) {
        // Stable: the other keys keep their order.
        entries.sort_by_key(|(k, _)| array_index(k).map_or((1, 0), |i| (0, i)));
    }
    entries
}

/// The value of k when k is an array index: the canonical decimal form of an integer from 0
/// to 2^32 - 2.
fn array_index(k: &JsString) -> Option<u64> {
    let u = &k.0;
    if u.is_empty() || u.len() > 10 || (u[0] == b'0' as u16 && u.len() > 1) {
        return None;
    }
    let mut n: u64 = 0;
    for &c in u {
        if !(b'0' as u16..=b'9' as u16).contains(&c) {
            return None;
        }
        n = n * 10 + u64::from(c - b'0' as u16);
    }
    (n <= 4_294_967_294).then_some(n)
}

const HEX: &[u8; 16] = b"0123456789abcdef";

fn quote_into(out: &mut Vec<u16>, s: &JsString) {
    let u = &s.0;
    out.push(b'"' as u16);
    let mut i = 0;
    while i < u.len() {
        let c = u[i];
        let esc = match c {
            0x22 => Some("\\\""),
            0x5C => Some("\\\\"),
            0x08 => Some("\\b"),
            0x0C => Some("\\f"),
            0x0A => Some("\\n"),
            0x0D => Some("\\r"),
            0x09 => Some("\\t"),
            _ => None,
        };
        if let Some(e) = esc {
            push(out, e);
            i += 1;
            continue;
        }
        let high = (0xD800..0xDC00).contains(&c);
        if high && i + 1 < u.len() && (0xDC00..0xE000).contains(&u[i + 1]) {
            out.push(c);
            out.push(u[i + 1]);
            i += 2;
            continue;
        }
        if c < 0x20 || (0xD800..0xE000).contains(&c) {
            push(out, "\\u");
            for shift in [12, 8, 4, 0] {
                out.push(HEX[((c >> shift) & 15) as usize] as u16);
            }
        } else {
            out.push(c);
        }
        i += 1;
    }
    out.push(b'"' as u16);
}

/// JSON.stringify of a string, as Rust text (lone surrogates are escaped, so nothing is lost).
pub fn quote(s: &JsString) -> String {
    let mut out = Vec::new();
    quote_into(&mut out, s);
    String::from_utf16(&out).expect("escaped JSON text is well-formed")
}

/// Number.prototype.toString(d) (ECMA-262 Number::toString, radix 10): the shortest digits
/// that read back as d, the closest when several do, in JavaScript's notation.
pub fn number_to_string(d: f64) -> String {
    if d.is_nan() {
        return "NaN".into();
    }
    if d == 0.0 {
        return "0".into();
    }
    if d.is_infinite() {
        return if d > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if d < 0.0 {
        return format!("-{}", number_to_string(-d));
    }
    // Rust's {:e} writes the shortest round-trip digits: "1.2345e-7".
    let e = format!("{:e}", d);
    let (mant, exp) = e.split_once('e').expect("{:e} has an exponent");
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    let mut n: i32 = exp.parse::<i32>().expect("exponent") + 1;
    let tie = even_tie(d, digits);
    let digits = match &tie {
        Some((t, e)) => {
            n = *e;
            t.as_str()
        }
        None => digits,
    };
    let k = digits.len() as i32;
    let mut b = String::new();
    if k <= n && n <= 21 {
        b.push_str(digits);
        b.extend(std::iter::repeat('0').take((n - k) as usize));
    } else if 0 < n && n <= 21 {
        b.push_str(&digits[..n as usize]);
        b.push('.');
        b.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        b.push_str("0.");
        b.extend(std::iter::repeat('0').take((-n) as usize));
        b.push_str(digits);
    } else {
        let e = n - 1;
        b.push_str(&digits[..1]);
        if k > 1 {
            b.push('.');
            b.push_str(&digits[1..]);
        }
        b.push('e');
        b.push(if e < 0 { '-' } else { '+' });
        b.push_str(&e.abs().to_string());
    }
    b
}

/// ECMAScript picks, of two shortest candidates equally close to d, the even one; Rust's
/// shortest digits round such a tie up (2^-25 is 2.98023223876953125e-8: JavaScript writes
/// ...5312, Rust ...5313). A tie needs 16 or more digits (the k-digit neighbours of d must
/// both read back as d) and an exact expansion of d that ends in a 5 right after them. Returns
/// the even candidate and its decimal point position, when that is the case and it reads back.
fn even_tie(d: f64, digits: &str) -> Option<(String, i32)> {
    let k = digits.len();
    if k < 16 {
        return None;
    }
    let exact = format!("{:.800e}", d); // 800 digits hold every double's exact expansion
    let (m, e) = exact.split_once('e')?;
    let all: String = m.chars().filter(|c| *c != '.').collect();
    let tail = &all[k..];
    if !tail.starts_with('5') || !tail[1..].bytes().all(|b| b == b'0') {
        return None;
    }
    let trunc = &all[..k];
    if trunc == digits || (trunc.as_bytes()[k - 1] - b'0') % 2 != 0 {
        return None;
    }
    let e: i32 = e.parse().ok()?;
    if format!("{}e{}", trunc, e - k as i32 + 1).parse::<f64>().ok()? != d {
        return None;
    }
    let t = trunc.trim_end_matches('0');
    Some((t.to_string(), e + 1))
}

/// A JSON text that JSON.parse rejects.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError(pub String);

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// JSON.parse over UTF-16 text: strict JSON; \udXXX escapes of lone surrogates kept. Nesting
/// deeper than 10,000 is refused rather than exhausting the stack.
pub fn parse(text: &JsString) -> Result<Value, SyntaxError> {
    let mut p = Parser { s: &text.0, i: 0 };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.err("unexpected text after the value"));
    }
    Ok(v)
}

/// JSON.parse of Rust text.
pub fn parse_str(text: &str) -> Result<Value, SyntaxError> {
    parse(&JsString::from(text))
}

struct Parser<'a> {
    s: &'a [u16],
    i: usize,
}

impl Parser<'_> {
    fn err(&self, what: &str) -> SyntaxError {
        SyntaxError(format!("{} at offset {}", what, self.i))
    }
    fn peek(&self, c: u8) -> bool {
        self.i < self.s.len() && self.s[self.i] == c as u16
    }
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], 0x20 | 0x09 | 0x0A | 0x0D) {
            self.i += 1;
        }
    }
    fn digit(&self) -> bool {
        self.i < self.s.len() && (b'0' as u16..=b'9' as u16).contains(&self.s[self.i])
    }
    fn lit(&mut self, word: &str, v: Value) -> Result<Value, SyntaxError> {
        let w: Vec<u16> = word.encode_utf16().collect();
        if self.s.len() >= self.i + w.len() && self.s[self.i..self.i + w.len()] == w[..] {
            self.i += w.len();
            Ok(v)
        } else {
            Err(self.err("unexpected token"))
        }
    }
    fn value(&mut self, depth: usize) -> Result<Value, SyntaxError> {
        if depth > 10000 {
            return Err(self.err("nesting too deep"));
        }
        if self.i >= self.s.len() {
            return Err(self.err("unexpected end"));
        }
        match self.s[self.i] {
            0x7B => {
                self.i += 1;
                let mut o = Object::new();
                self.ws();
                if self.peek(b'}') {
                    self.i += 1;
                    return Ok(Value::Object(o));
                }
                loop {
                    self.ws();
                    if !self.peek(b'"') {
                        return Err(self.err("expected a key"));
                    }
                    let k = self.string()?;
                    self.ws();
                    if !self.peek(b':') {
                        return Err(self.err("expected ':'"));
                    }
                    self.i += 1;
                    self.ws();
                    let v = self.value(depth + 1)?;
                    if let Some(e) = o.0.iter_mut().find(|e| e.0 == k) {
                        e.1 = v;
                    } else {
                        o.0.push((k, v));
                    }
                    self.ws();
                    if self.peek(b',') {
                        self.i += 1;
                        continue;
                    }
                    if self.peek(b'}') {
                        self.i += 1;
                        return Ok(Value::Object(o));
                    }
                    return Err(self.err("expected ',' or '}'"));
                }
            }
            0x5B => {
                self.i += 1;
                let mut a = Vec::new();
                self.ws();
                if self.peek(b']') {
                    self.i += 1;
                    return Ok(Value::Array(a));
                }
                loop {
                    self.ws();
                    a.push(self.value(depth + 1)?);
                    self.ws();
                    if self.peek(b',') {
                        self.i += 1;
                        continue;
                    }
                    if self.peek(b']') {
                        self.i += 1;
                        return Ok(Value::Array(a));
                    }
                    return Err(self.err("expected ',' or ']'"));
                }
            }
            0x22 => Ok(Value::String(self.string()?)),
            0x74 => self.lit("true", Value::Bool(true)),
            0x66 => self.lit("false", Value::Bool(false)),
            0x6E => self.lit("null", Value::Null),
            c if c == b'-' as u16 || (b'0' as u16..=b'9' as u16).contains(&c) => self.number(),
            _ => Err(self.err("unexpected character")),
        }
    }
    fn number(&mut self) -> Result<Value, SyntaxError> {
        let start = self.i;
        if self.peek(b'-') {
            self.i += 1;
        }
        if self.peek(b'0') {
            self.i += 1;
        } else if self.digit() {
            while self.digit() {
                self.i += 1;
            }
        } else {
            return Err(self.err("bad number"));
        }
        if self.peek(b'.') {
            self.i += 1;
            if !self.digit() {
                return Err(self.err("bad number"));
            }
            while self.digit() {
                self.i += 1;
            }
        }
        if self.peek(b'e') || self.peek(b'E') {
            self.i += 1;
            if self.peek(b'+') || self.peek(b'-') {
                self.i += 1;
            }
            if !self.digit() {
                return Err(self.err("bad number"));
            }
            while self.digit() {
                self.i += 1;
            }
        }
        let text = String::from_utf16(&self.s[start..self.i]).expect("ASCII");
        // Rust's parse rounds correctly, as JavaScript does (-0 and overflow to inf included).
        text.parse::<f64>().map(Value::Number).map_err(|_| self.err("bad number"))
    }
    fn string(&mut self) -> Result<JsString, SyntaxError> {
        self.i += 1;
        let mut out = Vec::new();
        loop {
            if self.i >= self.s.len() {
                return Err(self.err("unterminated string"));
            }
            let c = self.s[self.i];
            if c == 0x22 {
                self.i += 1;
                return Ok(JsString(out));
            }
            if c < 0x20 {
                return Err(self.err("control character in string"));
            }
            self.i += 1;
            if c != 0x5C {
                out.push(c);
                continue;
            }
            if self.i >= self.s.len() {
                return Err(self.err("unterminated escape"));
            }
            let e = self.s[self.i];
            self.i += 1;
            let v = match e {
                0x22 => 0x22,
                0x5C => 0x5C,
                0x2F => 0x2F,
                0x62 => 0x08,
                0x66 => 0x0C,
                0x6E => 0x0A,
                0x72 => 0x0D,
                0x74 => 0x09,
                0x75 => {
                    if self.i + 4 > self.s.len() {
                        return Err(self.err("bad \\u escape"));
                    }
                    let mut v: u16 = 0;
                    for j in 0..4 {
                        let x = self.s[self.i + j];
                        let h = match x {
                            0x30..=0x39 => x - 0x30,
                            0x61..=0x66 => x - 0x61 + 10,
                            0x41..=0x46 => x - 0x41 + 10,
                            _ => return Err(self.err("bad \\u escape")),
                        };
                        v = v * 16 + h;
                    }
                    self.i += 4;
                    v
                }
                _ => return Err(self.err("bad escape")),
            };
            out.push(v);
        }
    }
}
