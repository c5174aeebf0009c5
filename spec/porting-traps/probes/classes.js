// Prints, for the regular-expression classes the mention parser leans on, the code points that
// make up each class in JavaScript (u flag): "name: ranges". classes.* print the same for other
// engines; compare_classes.py tells the differences.
const classes = { s: /^\s$/u, dot: /^.$/u, w: /^\w$/u, d: /^\d$/u };
const ranges = (pred) => {
  const out = []; let start = -1;
  for (let cp = 0; cp <= 0x110000; cp++) {
    const ok = cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) && pred(String.fromCodePoint(cp));
    if (ok && start < 0) start = cp;
    if (!ok && start >= 0) { out.push(start === cp - 1 ? start.toString(16) : `${start.toString(16)}-${(cp - 1).toString(16)}`); start = -1; }
  }
  return out.join(" ");
};
for (const [name, re] of Object.entries(classes)) console.log(`${name}: ${ranges((c) => re.test(c))}`);
