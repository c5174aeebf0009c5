// Same output as case.js, with str::to_lowercase of the running Rust.
use std::fmt::Write;
fn main() {
    let mut out = String::new();
    for cp in 0u32..=0x10FFFF {
        let Some(c) = char::from_u32(cp) else { continue };
        let s = c.to_string();
        let l = s.to_lowercase();
        let a = format!("A{}\u{3a3}", c).to_lowercase().ends_with('\u{3c2}') as u8;
        let b = (format!("A\u{3a3}{}", c).to_lowercase().chars().nth(1) == Some('\u{3c3}')) as u8;
        if l != s || a == 1 || b == 1 {
            let h: Vec<String> = l.chars().map(|x| format!("{:X}", x as u32)).collect();
            writeln!(out, "{:X}\t{}\t{}{}", cp, h.join(" "), a, b).unwrap();
        }
    }
    print!("{}", out);
}
