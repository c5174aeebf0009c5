# classes.js for Ruby's Regexp (Onigmo) on UTF-8 strings, default options.
{ "s" => /\A\s\z/, "dot" => /\A.\z/, "w" => /\A\w\z/, "d" => /\A\d\z/ }.each do |name, re|
  out = []; start = -1
  (0..0x110000).each do |cp|
    ok = cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF) && re.match?(cp.chr(Encoding::UTF_8))
    start = cp if ok && start < 0
    if !ok && start >= 0
      out << (start == cp - 1 ? start.to_s(16) : "#{start.to_s(16)}-#{(cp - 1).to_s(16)}")
      start = -1
    end
  end
  puts "#{name}: #{out.join(' ')}"
end
