// Rust's defaults for a double, one input (16 hex digits, the IEEE 754 bits) a line:
// format!("{}", x) and format!("{:?}", x), tab-separated.
use std::io::{self, BufRead, Write};
fn main() {
    let out = io::stdout();
    let mut out = io::BufWriter::new(out.lock());
    for line in io::stdin().lock().lines() {
        let x = f64::from_bits(u64::from_str_radix(line.unwrap().trim(), 16).unwrap());
        writeln!(out, "{}\t{:?}", x, x).unwrap();
    }
}
