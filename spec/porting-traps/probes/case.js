// Prints, for every code point (surrogates excluded), three fields the other case probes print
// too: the full lowercase of the code point alone, and two final-sigma probes that read the
// derived properties: "A"+c+"Σ" ends in ς iff c is Cased or Case_Ignorable; "AΣ"+c keeps σ iff c is Cased.
const out = [];
const hex = (s) => Array.from(s, (ch) => ch.codePointAt(0).toString(16).toUpperCase()).join(" ");
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const c = String.fromCodePoint(cp);
  const l = c.toLowerCase();
  const a = ("A" + c + "\u03a3").toLowerCase().endsWith("\u03c2") ? 1 : 0;
  const b = ("A\u03a3" + c).toLowerCase()[1] === "\u03c3" ? 1 : 0;
  if (l !== c || a || b) out.push(`${cp.toString(16).toUpperCase()}\t${hex(l)}\t${a}${b}`);
}
process.stdout.write(out.join("\n") + "\n");
