// classes.js for C++: std::regex (ECMAScript grammar) over UTF-8 bytes ("-bytes"), std::wregex over
// wchar_t in the C.UTF-8 locale ("-wregex"), and ICU's uregex ("-icu").
#include <regex>
#include <string>
#include <cstdio>
#include <clocale>
#include <cstring>
#include <unicode/uregex.h>
#include <unicode/ustring.h>
static std::string utf8(unsigned cp) {
  std::string s;
  if (cp < 0x80) s += (char)cp;
  else if (cp < 0x800) { s += (char)(0xC0 | cp >> 6); s += (char)(0x80 | (cp & 63)); }
  else if (cp < 0x10000) { s += (char)(0xE0 | cp >> 12); s += (char)(0x80 | (cp >> 6 & 63)); s += (char)(0x80 | (cp & 63)); }
  else { s += (char)(0xF0 | cp >> 18); s += (char)(0x80 | (cp >> 12 & 63)); s += (char)(0x80 | (cp >> 6 & 63)); s += (char)(0x80 | (cp & 63)); }
  return s;
}
template <class F> static void ranges(const char* name, F ok) {
  printf("%s:", name); int start = -1;
  for (int cp = 0; cp <= 0x110000; cp++) {
    bool m = cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF) && ok(cp);
    if (m && start < 0) start = cp;
    if (!m && start >= 0) { if (start == cp - 1) printf(" %x", start); else printf(" %x-%x", start, cp - 1); start = -1; }
  }
  printf("\n");
}
int main() {
  setlocale(LC_ALL, "C.UTF-8");
  const char* pats[][2] = {{"s", "\\s"}, {"dot", "."}, {"w", "\\w"}, {"d", "\\d"}};
  for (auto& p : pats) {
    std::regex re(p[1]);
    ranges((std::string(p[0]) + "-bytes").c_str(), [&](int cp) { return std::regex_match(utf8(cp), re); });
  }
  for (auto& p : pats) {
    std::wstring wp(p[1], p[1] + strlen(p[1]));
    std::wregex re(wp);
    ranges((std::string(p[0]) + "-wregex").c_str(), [&](int cp) { return std::regex_match(std::wstring(1, (wchar_t)cp), re); });
  }
  for (auto& p : pats) {
    UErrorCode e = U_ZERO_ERROR; UChar pat[8]; u_uastrcpy(pat, p[1]);
    URegularExpression* re = uregex_open(pat, -1, 0, nullptr, &e);
    ranges((std::string(p[0]) + "-icu").c_str(), [&](int cp) {
      UChar buf[2]; int32_t n = 0; U16_APPEND_UNSAFE(buf, n, cp);
      UErrorCode e2 = U_ZERO_ERROR; uregex_setText(re, buf, n, &e2); return (bool)uregex_matches(re, 0, &e2); });
  }
}
