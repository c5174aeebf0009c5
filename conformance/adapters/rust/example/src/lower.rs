//! String.prototype.toLocaleLowerCase in Node's default (en-US) locale: ICU's full lowercase
//! mapping of Unicode 15 per code point (casedata.txt, generated from Node), and the final
//! sigma decided as ICU decides it. Rust's str::to_lowercase has another Unicode version.

use sessionref_kit::JsString;
use std::collections::HashMap;
use std::sync::OnceLock;

struct Data {
    lower: HashMap<u32, Vec<u32>>,
    cased: Vec<(u32, u32)>,
    ignorable: Vec<(u32, u32)>,
}

fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| {
        let text = include_str!("../casedata.txt");
        let mut lines = text.lines();
        let hex = |s: &str| u32::from_str_radix(s, 16).expect("hex");
        let lower = lines
            .next()
            .unwrap_or("")
            .split(' ')
            .filter(|e| !e.is_empty())
            .map(|e| {
                let (cp, l) = e.split_once(':').expect("cp:lower");
                (hex(cp), l.split(',').map(hex).collect())
            })
            .collect();
        let mut ranges = || -> Vec<(u32, u32)> {
            lines
                .next()
                .unwrap_or("")
                .split(' ')
                .filter(|e| !e.is_empty())
                .map(|r| {
                    let (a, b) = r.split_once('-').expect("a-b");
                    (hex(a), hex(b))
                })
                .collect()
        };
        let cased = ranges();
        let ignorable = ranges();
        Data { lower, cased, ignorable }
    })
}

fn within(ranges: &[(u32, u32)], cp: u32) -> bool {
    let i = ranges.partition_point(|r| r.1 < cp);
    i < ranges.len() && ranges[i].0 <= cp
}

/// The code point at i and its length in code units (a lone surrogate is its own).
fn at(u: &[u16], i: usize) -> (u32, usize) {
    let c = u[i] as u32;
    if (0xD800..0xDC00).contains(&c) && i + 1 < u.len() && (0xDC00..0xE000).contains(&(u[i + 1] as u32)) {
        (0x10000 + ((c - 0xD800) << 10) + (u[i + 1] as u32 - 0xDC00), 2)
    } else {
        (c, 1)
    }
}

fn before(u: &[u16], i: usize) -> (u32, usize) {
    let c = u[i - 1] as u32;
    if (0xDC00..0xE000).contains(&c) && i >= 2 && (0xD800..0xDC00).contains(&(u[i - 2] as u32)) {
        at(u, i - 2)
    } else {
        (c, 1)
    }
}

fn push_cp(out: &mut Vec<u16>, cp: u32) {
    if cp >= 0x10000 {
        let v = cp - 0x10000;
        out.push(0xD800 + (v >> 10) as u16);
        out.push(0xDC00 + (v & 0x3FF) as u16);
    } else {
        out.push(cp as u16);
    }
}

/// toLocaleLowerCase(s).
pub fn lower(s: &JsString) -> JsString {
    let d = data();
    let u = s.units();
    let mut out = Vec::with_capacity(u.len());
    let mut i = 0;
    while i < u.len() {
        let (cp, n) = at(u, i);
        if cp == 0x3A3 {
            out.push(if cased_before(d, u, i) && !cased_after(d, u, i + 1) { 0x3C2 } else { 0x3C3 });
        } else if let Some(l) = d.lower.get(&cp) {
            for &c in l {
                push_cp(&mut out, c);
            }
        } else {
            out.extend_from_slice(&u[i..i + n]);
        }
        i += n;
    }
    JsString(out)
}

// ICU's isFollowedByCasedLetter: skip case-ignorable code points; the next one decides.
fn cased_before(d: &Data, u: &[u16], mut i: usize) -> bool {
    while i > 0 {
        let (cp, n) = before(u, i);
        i -= n;
        if within(&d.ignorable, cp) {
            continue;
        }
        return within(&d.cased, cp);
    }
    false
}

fn cased_after(d: &Data, u: &[u16], mut i: usize) -> bool {
    while i < u.len() {
        let (cp, n) = at(u, i);
        i += n;
        if within(&d.ignorable, cp) {
            continue;
        }
        return within(&d.cased, cp);
    }
    false
}
