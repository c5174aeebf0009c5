use std::io::Write;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut lo = std::fs::File::create(&args[1]).unwrap();
    let mut sg = std::fs::File::create(&args[2]).unwrap();
    for cp in 0u32..0x110000 {
        let c = match char::from_u32(cp) { Some(c) => c, None => continue };
        let s = c.to_string();
        let l = s.to_lowercase();
        if l != s { write!(lo, "{}:", cp).unwrap(); for x in l.chars() { write!(lo, "{},", x as u32).unwrap(); } writeln!(lo).unwrap(); }
        let s1 = format!("{}Σ", c).to_lowercase(); let s2 = format!("A{}Σ", c).to_lowercase(); let s3 = format!("AΣ{}", c).to_lowercase();
        let f = (s1.ends_with('ς') as u32) | ((s2.ends_with('ς') as u32) << 1) | ((s3.chars().nth(1) == Some('σ')) as u32) << 2;
        if f != 0 { writeln!(sg, "{}:{}", cp, f).unwrap(); }
    }
}
