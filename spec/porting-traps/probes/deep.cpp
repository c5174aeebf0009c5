// How deep a label libstdc++ std::regex can take with the mention regex (argv[1] = label length); it crashes past its stack.
#include <regex>
#include <cstdio>
#include <cstdlib>
int main(int c, char** v) { int n = atoi(v[1]); std::string s = "@["; for (int i = 0; i < n / 4; i++) s += "ab\\]"; s += "](dsh-session:IiI)";
 std::regex m("@\\[((?:\\\\.|[^\\\\\\]])*)\\]\\((dsh-session:[^\\s)]*)\\)|(dsh-session:[A-Za-z0-9_-]+)"); std::smatch sm; printf("%d %d\n", n, (int)std::regex_search(s, sm, m)); }
