// Same output as case.js, with ICU's u_strToLower(locale "") (and, with argv[1] == "towlower",
// glibc's towlower per code point, which has no context and no final sigma).
#include <unicode/ustring.h>
#include <unicode/uchar.h>
#include <cwctype>
#include <clocale>
#include <cstdio>
#include <cstring>
#include <string>
static std::u16string lower(const std::u16string& s) {
  UChar buf[64]; UErrorCode e = U_ZERO_ERROR;
  int32_t n = u_strToLower(buf, 64, (const UChar*)s.data(), s.size(), "", &e);
  return std::u16string((char16_t*)buf, n);
}
static std::u16string cps(uint32_t cp) {
  std::u16string s; if (cp < 0x10000) s += (char16_t)cp; else { cp -= 0x10000; s += (char16_t)(0xD800 + (cp >> 10)); s += (char16_t)(0xDC00 + (cp & 0x3FF)); } return s;
}
int main(int argc, char** argv) {
  bool tw = argc > 1 && !strcmp(argv[1], "towlower");
  if (tw) setlocale(LC_ALL, "C.UTF-8");
  for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    if (tw) { wint_t l = towlower(cp); if (l != cp) printf("%X\t%X\t00\n", cp, (unsigned)l); continue; }
    std::u16string c = cps(cp), l = lower(c);
    std::u16string s1 = lower(u"A" + c + u"\u03a3"), s2 = lower(u"A\u03a3" + c);
    int a = s1.back() == u'\u03c2', b = s2[1] == u'\u03c3';
    if (l != c || a || b) {
      printf("%X\t", cp);
      int32_t i = 0, n = (int32_t)l.size(); bool first = true;
      while (i < n) { UChar32 x; U16_NEXT(l.data(), i, n, x); printf(first ? "%X" : " %X", (unsigned)x); first = false; }
      printf("\t%d%d\n", a, b);
    }
  }
}
