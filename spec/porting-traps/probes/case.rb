# Same output as case.js, with String#downcase of the running Ruby.
out = []
(0..0x10FFFF).each do |cp|
  next if cp >= 0xD800 && cp <= 0xDFFF
  c = cp.chr(Encoding::UTF_8)
  l = c.downcase
  a = ("A" + c + "\u03a3").downcase.end_with?("\u03c2") ? 1 : 0
  b = ("A\u03a3" + c).downcase[1] == "\u03c3" ? 1 : 0
  out << format("%X\t%s\t%d%d", cp, l.codepoints.map { |x| format("%X", x) }.join(" "), a, b) if l != c || a == 1 || b == 1
end
puts out
