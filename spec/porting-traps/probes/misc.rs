// Small behaviours of the running Rust std that the catalogue cites; each line is "what: result".
use std::collections::HashSet;
fn main() {
    let mut xs: Vec<(u8, usize)> = (0..100).map(|i| ((i % 3) as u8, i)).collect();
    xs.sort_unstable_by_key(|r| r.0);
    let stable = xs.windows(2).all(|w| w[0].0 != w[1].0 || w[0].1 < w[1].1);
    println!("sort_unstable_by_key keeps order of 100 items in 3 ranks: {}", stable);
    let mut ys: Vec<(u8, usize)> = (0..100).map(|i| ((i % 3) as u8, i)).collect();
    ys.sort_by_key(|r| r.0);
    println!("sort_by_key keeps order: {}", ys.windows(2).all(|w| w[0].0 != w[1].0 || w[0].1 < w[1].1));
    println!("String::from_utf16_lossy([0xD800]) bytes: {:?}", String::from_utf16_lossy(&[0xD800]).as_bytes());
    println!("String::from_utf16([0xD800]): {:?}", String::from_utf16(&[0xD800]).is_err());
    for f in [2.0f64, 1e16, 1e21, 1e-7, 5e-324, -0.0] { println!("f64 Display {:?}: {} / Debug {:?}", f, f, f); }
    println!("'\\u{{130}}'.to_lowercase(): {:?}", "\u{130}".to_lowercase().chars().map(|c| format!("{:X}", c as u32)).collect::<Vec<_>>());
    println!("char::to_lowercase('\\u{{130}}') count: {}", '\u{130}'.to_lowercase().count());
    println!("\"AΣ\".to_lowercase(): {}", "AΣ".to_lowercase());
    println!("\"😀\".len(), chars().count(), encode_utf16().count(): {} {} {}", "😀".len(), "😀".chars().count(), "😀".encode_utf16().count());
    let h: HashSet<&str> = ["a", "b", "c", "d", "e"].iter().copied().collect();
    println!("HashSet iteration order (random per process): {:?}", h.iter().collect::<Vec<_>>());
    println!("BOM kept by String::from_utf8: {}", String::from_utf8(vec![0xEF, 0xBB, 0xBF, b'a']).unwrap().chars().count());
}
