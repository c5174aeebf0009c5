// ICU: uregex `$` before final line terminators, and UnicodeString::toLower() under the default locale (run with LANG=tr_TR.UTF-8 too).
#include <unicode/uregex.h>
#include <unicode/unistr.h>
#include <unicode/ustring.h>
#include <cstdio>
int main() {
  UErrorCode e = U_ZERO_ERROR; UChar pat[64]; u_uastrcpy(pat, "^[A-Za-z0-9_-]+$");
  URegularExpression* re = uregex_open(pat, -1, 0, nullptr, &e);
  const char16_t* ins[] = {u"IiI\n", u"IiI\r\n", u"IiI\u000b", u"IiI\u0085", u"IiI\u2028", u"!!\nIiI"};
  const char* names[] = {"IiI\\n", "IiI\\r\\n", "IiI\\v", "IiI\\u0085", "IiI\\u2028", "!!\\nIiI"};
  for (int i = 0; i < 6; i++) { UErrorCode e2 = U_ZERO_ERROR; uregex_setText(re, (const UChar*)ins[i], -1, &e2); printf("uregex_find ^..$ %s: %d\n", names[i], (int)uregex_find(re, 0, &e2)); }
  icu::UnicodeString s(u"I"); s.toLower(); printf("UnicodeString::toLower() of I under the default locale: U+%04X\n", s.charAt(0));
}
