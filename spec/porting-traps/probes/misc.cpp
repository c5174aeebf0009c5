// Small behaviours of libstdc++ and ICU that the catalogue cites; each line is "what: result".
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <regex>
#include <string>
#include <vector>
#include <unicode/ustring.h>
#include <unicode/uregex.h>
int main() {
  printf("compiler: g++ %d.%d, ICU %s\n", __GNUC__, __GNUC_MINOR__, U_ICU_VERSION);
  std::regex p("^[A-Za-z0-9_-]+$");
  for (const char* s : {"IiI\n", "IiI\r\n", "!!\nIiI"}) printf("regex_search ^..$ %s: %d\n", s[3] == '\n' ? "IiI\\n" : s[3] == '\r' ? "IiI\\r\\n" : "!!\\nIiI", (int)std::regex_search(std::string(s), p));
  for (const char* l : {"$1", "$&", "$$", "\\1"}) printf("regex_replace '@'+%s: %s\n", l, std::regex_replace(std::string("@[x]"), std::regex("@\\[(x)\\]"), std::string("@") + l).c_str());
  struct R { int rank, i; };
  std::vector<R> xs; for (int i = 0; i < 100; i++) xs.push_back({i % 3, i});
  std::sort(xs.begin(), xs.end(), [](const R& a, const R& b) { return a.rank < b.rank; });
  bool stable = true; for (size_t i = 1; i < xs.size(); i++) if (xs[i-1].rank == xs[i].rank && xs[i-1].i > xs[i].i) stable = false;
  printf("std::sort keeps order of 100 items in 3 ranks: %d\n", (int)stable);
  std::vector<R> ys; for (int i = 0; i < 16; i++) ys.push_back({i % 3, i});
  std::sort(ys.begin(), ys.end(), [](const R& a, const R& b) { return a.rank < b.rank; });
  stable = true; for (size_t i = 1; i < ys.size(); i++) if (ys[i-1].rank == ys[i].rank && ys[i-1].i > ys[i].i) stable = false;
  printf("std::sort keeps order of 16 items in 3 ranks: %d\n", (int)stable);
  for (double d : {2.0, 1e16, 1e21, 1e-7, 5e-324, -0.0}) { char b[64]; auto r = std::to_chars(b, b + 64, d); *r.ptr = 0; printf("to_chars %g: %s\n", d, b); }
  UChar lone[] = {0xD800}; char out[16]; int32_t n = 0; UErrorCode e = U_ZERO_ERROR;
  u_strToUTF8(out, 16, &n, lone, 1, &e); printf("u_strToUTF8 lone surrogate: %s\n", u_errorName(e));
  e = U_ZERO_ERROR; u_strToUTF8WithSub(out, 16, &n, lone, 1, 0xFFFD, nullptr, &e); printf("u_strToUTF8WithSub U+FFFD: %d bytes\n", n);
  std::string label = "@[";
  for (int i = 0; i < 100000; i++) label += i % 2 ? "\\]" : "ab";
  label += "](dsh-session:IiI)";
  std::regex m("@\\[((?:\\\\.|[^\\\\\\]])*)\\]\\((dsh-session:[^\\s)]*)\\)|(dsh-session:[A-Za-z0-9_-]+)");
  fflush(stdout);
  std::smatch sm; bool found = std::regex_search(label, sm, m);
  printf("std::regex mention on a 300000-char label: %d\n", (int)found);
}
