# Small behaviours of the running Ruby that the catalogue cites; each line is "what: result".
require "json"
require "base64"
def show(what)
  r = begin; yield; rescue StandardError => e; "raises #{e.class}: #{e.message}"; end
  puts "#{what}: #{r.inspect}"
end
show("version") { RUBY_VERSION }
p1 = /^[A-Za-z0-9_-]+$/
["IiI\n", "IiI\r\n", "!!\nIiI", "IiI\n!!"].each { |s| show("=~ /^..$/ #{s.inspect}") { !!(p1 =~ s) } }
show("=~ /\\A..\\z/ \"IiI\\n\"") { !!(/\A[A-Za-z0-9_-]+\z/ =~ "IiI\n") }
show("=~ /\\A..\\Z/ \"IiI\\n\"") { !!(/\A[A-Za-z0-9_-]+\Z/ =~ "IiI\n") }
["\\1", "\\0", "\\&", "\\\\", "$1", "\\k<x>"].each { |l| show("gsub repl '@'+#{l}") { "@[x]".gsub(/@\[(x)\]/, "@" + l) } }
show("gsub block") { "@[x]".gsub(/@\[(x)\]/) { "@\\1" } }
show("JSON.generate") { JSON.generate({ "a" => [1, "é<>&/\u2028\u007f\u001f"] }) }
show("JSON.generate script_safe") { JSON.generate("</\u2028", script_safe: true) }
show("JSON.parse lone surrogate") { JSON.parse('"\ud800"').bytes }
show("JSON.generate of that") { JSON.generate(JSON.parse('"\ud800"')) }
[2.0, 1e16, 1e21, 1e-7, 5e-324, -0.0].each { |f| show("JSON.generate #{f}") { JSON.generate(f) } }
show("JSON.parse 2.0 class") { JSON.parse("2.0").class }
show("JSON.parse 9007199254740993") { JSON.parse("9007199254740993") }
show("true.is_a?(Integer)") { true.is_a?(Integer) }
show("urlsafe_encode64") { Base64.urlsafe_encode64('"~~"') }
show("urlsafe_encode64 padding: false") { Base64.urlsafe_encode64('"~~"', padding: false) }
show("urlsafe_decode64 unpadded") { Base64.urlsafe_decode64("IiI") }
show("urlsafe_decode64 trailing bits") { Base64.urlsafe_decode64("IiJ") }
show("urlsafe_decode64 newline") { Base64.urlsafe_decode64("Ii\nI") }
show("decode64 lenient") { Base64.decode64("Ii*\nI") }
xs = (0...100).map { |i| [i % 3, i] }.sort_by { |r, _| r }
show("sort_by keeps order of 100 items in 3 ranks") { xs.each_cons(2).all? { |(r1, i1), (r2, i2)| r1 != r2 || i1 < i2 } }
ys = (0...10).map { |i| [i % 3, i] }.sort_by { |r, _| r }
show("sort_by keeps order of 10 items in 3 ranks") { ys.each_cons(2).all? { |(r1, i1), (r2, i2)| r1 != r2 || i1 < i2 } }
show("length, bytesize of 😀") { ["😀".length, "😀".bytesize] }
show("BOM kept") { "\xEF\xBB\xBFa".force_encoding("UTF-8").length }
show("utf-16 lone surrogate to UTF-8") { "\xD8\x00".force_encoding("UTF-16BE").encode("UTF-8", invalid: :replace).bytes }
show("'AΣ'.downcase") { "AΣ".downcase }
show("'İ'.downcase code points") { "\u0130".downcase.codepoints.map { |c| c.to_s(16) } }
show("'é' == 'e\\u0301'") { "\u00e9" == "e\u0301" }
show("'ß'.casecmp?('SS')") { "ß".casecmp?("SS") }
