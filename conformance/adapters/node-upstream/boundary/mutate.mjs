// Boundary mutants of the published package's lib/index.js: the operators StrykerJS lacks.
//
//   number      every numeric literal N as N+1 and N-1
//   bound       the right operand of every <, <=, >, >= (a name, a member chain or a call) ±1
//   index       every computed index a[i] whose index is a name or a member chain ±1
//   argument    every non-literal argument of slice, splice, Math.max and Math.min ±1
//   initializer a numeric-looking name's initializer or assignment (low, high, …Index, …Bytes,
//               target, limit, …) ±1, when it is a name or a member chain
//   math        Math.floor, Math.ceil and Math.round as each other; Math.max and Math.min swapped
//   search      findIndex <-> findLastIndex, find <-> findLast, indexOf <-> lastIndexOf
//   union       members of the closed unions projection names (event types, content block
//               types, source kinds, the checkpoint marker) that it does not name, added to the
//               branch that names another: a case label, an `||` beside `=== "text"`, an `&&`
//               beside `!== "user"`, an `||` beside the checkpoint test
//
// The source is scanned with a small JavaScript lexer (comments, strings, templates with
// ${…}, regular expression literals), so nothing inside a string, comment or regex is mutated.
// A mutant is keyed by operator, the trimmed text of its line, the original and replacement
// text and the occurrence of that original on the line: a key survives line shifts and
// re-indentation, so one key serves both releases (0.1.0-rc.8 re-indents the service class).

/** Code spans of src: [start, end) ranges outside comments, strings, templates' text and regexes. */
export function codeSpans(src) {
	const spans = [];
	let i = 0;
	let start = 0;
	const stack = []; // template nesting: brace depth at each ${
	let depth = 0;
	let prevSignificant = ""; // last non-space code character (regex or division?)
	let prevWord = "";
	const close = (end) => {
		if (end > start) spans.push([start, end]);
	};
	const isIdent = (ch) => /[A-Za-z0-9_$]/.test(ch);
	while (i < src.length) {
		const ch = src[i];
		const next = src[i + 1];
		if (ch === "/" && next === "/") {
			close(i);
			while (i < src.length && src[i] !== "\n") i++;
			start = i;
			continue;
		}
		if (ch === "/" && next === "*") {
			close(i);
			i = src.indexOf("*/", i + 2) + 2;
			start = i;
			continue;
		}
		if (ch === '"' || ch === "'") {
			close(i);
			i++;
			while (src[i] !== ch) i += src[i] === "\\" ? 2 : 1;
			i++;
			start = i;
			prevSignificant = ch;
			prevWord = "";
			continue;
		}
		if (ch === "`" || (ch === "}" && stack.length > 0 && stack[stack.length - 1] === depth)) {
			// template text from here to the next ${ or closing backtick
			if (ch === "}") stack.pop();
			close(i);
			i++;
			while (i < src.length) {
				if (src[i] === "\\") { i += 2; continue; }
				if (src[i] === "`") { i++; break; }
				if (src[i] === "$" && src[i + 1] === "{") { i += 2; stack.push(depth); break; }
				i++;
			}
			start = i;
			prevSignificant = "`";
			prevWord = "";
			continue;
		}
		if (ch === "/" && (/[(,=:[!&|?{};+\-*%<>~^]/.test(prevSignificant) || prevSignificant === "" || ["return", "typeof", "case", "in", "of"].includes(prevWord))) {
			// a regular expression literal
			close(i);
			i++;
			let inClass = false;
			while (i < src.length) {
				if (src[i] === "\\") { i += 2; continue; }
				if (src[i] === "[") inClass = true;
				else if (src[i] === "]") inClass = false;
				else if (src[i] === "/" && !inClass) break;
				i++;
			}
			i++;
			while (isIdent(src[i])) i++;
			start = i;
			prevSignificant = "/";
			prevWord = "";
			continue;
		}
		if (ch === "{") depth++;
		if (ch === "}") depth--;
		if (!/\s/.test(ch)) {
			if (isIdent(ch)) {
				let j = i;
				while (isIdent(src[j])) j++;
				prevWord = src.slice(i, j);
				prevSignificant = "a";
				i = j;
				continue;
			}
			prevSignificant = ch;
			prevWord = "";
		}
		i++;
	}
	close(i);
	return spans;
}

// A simple operand: a name or member chain, optionally called (balanced parentheses), e.g.
// `maxBytes`, `this.config.maxReferences`, `size()`, `Buffer.byteLength(x, "utf8")`.
function operandAt(src, i) {
	const m = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*/.exec(src.slice(i));
	if (!m) return null;
	let end = i + m[0].length;
	if (src[end] === "(") {
		let d = 0;
		let j = end;
		for (; j < src.length; j++) {
			if (src[j] === "(") d++;
			else if (src[j] === ")" && --d === 0) break;
		}
		end = j + 1;
		if (src[end] === ".") return null; // a longer chain: leave it
	}
	if (src[end] === "[") return null;
	return { start: i, end, text: src.slice(i, end) };
}

const NUMERIC_NAME = /(^|[a-z])(index|Index|low|high|Bytes|bytes|target|overflow|limit|Limit|count|Count|size|Size|seq|Seq|max|Max|min|Min|length)$|^(low|high|target|overflow|limit|index)$/;

// The closed unions projection reads, with the members it names and the neighbours added.
export const UNIONS = {
	event: { named: ["user/message", "assistant/message", "tool/result"], extra: ["assistant/chunk", "tool/call", "turn/start", "compaction/summary", "session/title", "system/notice", "user/context"] },
	block: { named: ["text"], extra: ["reasoning", "image", "tool-call", "tool-result", "input_text", "output_text", "Text", "thinking", "refusal"] },
	kind: { named: ["user", "plugin", "session-reference"], extra: ["model", "tool", "plugin", "session-reference", "system", "assistant", "host", "User", "parent", "hook", "compact", "checkpoint"] },
	checkpoint: { extra: [["kind", "compact"], ["kind", "checkpoint"], ["plugin", "compaction"], ["plugin", "dsh-compact"], ["plugin", "Compact"]] },
};

/**
 * The boundary mutants of src between lines first..last (1-based, inclusive).
 * @returns {{id: number, operator: string, line: number, lineText: string, original: string,
 *   replacement: string, occurrence: number, start: number, end: number}[]}
 */
export function mutants(src, first, last) {
	const lineStarts = [0];
	for (let i = 0; i < src.length; i++) if (src[i] === "\n") lineStarts.push(i + 1);
	const lo = lineStarts[first - 1];
	const hi = last < lineStarts.length ? lineStarts[last] : src.length;
	const lineOf = (pos) => {
		let l = 0;
		let h = lineStarts.length - 1;
		while (l < h) {
			const m = (l + h + 1) >> 1;
			if (lineStarts[m] <= pos) l = m;
			else h = m - 1;
		}
		return l + 1;
	};
	const spans = codeSpans(src).map(([s, e]) => [Math.max(s, lo), Math.min(e, hi)]).filter(([s, e]) => e > s);
	const inCode = (pos) => spans.some(([s, e]) => pos >= s && pos < e);
	const out = [];
	const seen = new Set();
	const add = (operator, start, end, replacement) => {
		const original = src.slice(start, end);
		if (original === replacement) return;
		const key = `${start}:${end}:${replacement}`;
		if (seen.has(key)) return;
		seen.add(key);
		const line = lineOf(start);
		const lineText = src.slice(lineStarts[line - 1], (lineStarts[line] ?? src.length + 1) - 1);
		out.push({ operator, line, lineText: lineText.trim(), original, replacement, start, end });
	};
	const plusMinus = (operator, o) => {
		add(operator, o.start, o.end, `(${o.text} + 1)`);
		add(operator, o.start, o.end, `(${o.text} - 1)`);
	};
	for (const [s, e] of spans) {
		const code = src.slice(s, e);
		let m;
		// number: integer and decimal literals not part of a name; not the operand of `void`
		// (the compiler's spelling of undefined, whatever the operand)
		const num = /(?<![\w$.])(?<!\bvoid )\d+(?:\.\d+)?(?![\w$])/g;
		while ((m = num.exec(code))) {
			const v = Number(m[0]);
			add("number", s + m.index, s + m.index + m[0].length, String(v + 1));
			add("number", s + m.index, s + m.index + m[0].length, v - 1 < 0 ? `(${v - 1})` : String(v - 1));
		}
		// bound: the right operand of a relational operator
		const rel = /(?<![=<>!])(<=|>=|<|>)(?![=>])/g;
		while ((m = rel.exec(code))) {
			let j = s + m.index + m[0].length;
			while (/\s/.test(src[j])) j++;
			const o = operandAt(src, j);
			if (o && o.end <= e + 1000 && inCode(j)) plusMinus("bound", o);
		}
		// index: a[i]
		const idx = /[\w$\])]\[/g;
		while ((m = idx.exec(code))) {
			const j = s + m.index + 2;
			const o = operandAt(src, j);
			if (o && src[o.end] === "]") plusMinus("index", o);
		}
		// argument: slice, splice, Math.max, Math.min
		const call = /(?:\.slice|\.splice|Math\.max|Math\.min)\(/g;
		while ((m = call.exec(code))) {
			let j = s + m.index + m[0].length;
			for (;;) {
				while (/\s/.test(src[j])) j++;
				const o = operandAt(src, j);
				let k = j;
				if (o) {
					k = o.end;
					while (/\s/.test(src[k])) k++;
					if (src[k] === "," || src[k] === ")") plusMinus("argument", o);
				}
				// to the next top-level comma or the closing parenthesis
				let d = 0;
				for (; k < src.length; k++) {
					if ("([{".includes(src[k])) d++;
					else if (")]}".includes(src[k])) { if (d === 0) break; d--; }
					else if (src[k] === "," && d === 0) break;
				}
				if (src[k] !== ",") break;
				j = k + 1;
			}
		}
		// initializer: let/const NAME = operand; NAME = operand;
		const init = /(?:\b(?:let|const)\s+)?\b([A-Za-z_$][\w$]*)\s*=\s*(?![=>])/g;
		while ((m = init.exec(code))) {
			if (!NUMERIC_NAME.test(m[1])) continue;
			if (s + m.index > 0 && /[\w$.]/.test(src[s + m.index - 1])) continue;
			const j = s + m.index + m[0].length;
			const o = operandAt(src, j);
			if (o && /^[;,\n]/.test(src.slice(o.end).trimStart().slice(0, 1) || ";")) plusMinus("initializer", o);
		}
		// math
		const math = /Math\.(floor|ceil|round|max|min)\b/g;
		while ((m = math.exec(code))) {
			const others = { floor: ["ceil", "round"], ceil: ["floor", "round"], round: ["floor", "ceil"], max: ["min"], min: ["max"] }[m[1]];
			for (const x of others) add("math", s + m.index, s + m.index + m[0].length, `Math.${x}`);
		}
		// search
		const search = /\.(findIndex|findLastIndex|find|findLast|indexOf|lastIndexOf)\(/g;
		while ((m = search.exec(code))) {
			const swap = { findIndex: "findLastIndex", findLastIndex: "findIndex", find: "findLast", findLast: "find", indexOf: "lastIndexOf", lastIndexOf: "indexOf" }[m[1]];
			add("search", s + m.index + 1, s + m.index + 1 + m[1].length, swap);
		}
	}
	// union: over the whole region's text, checking each match starts in code
	const region = src.slice(lo, hi);
	let m;
	const caseLabel = /case ("[^"]*"):/g;
	while ((m = caseLabel.exec(region))) {
		const lit = JSON.parse(m[1]);
		if (!inCode(lo + m.index) || !UNIONS.event.named.includes(lit)) continue;
		for (const x of UNIONS.event.extra) add("union", lo + m.index, lo + m.index + m[0].length, `case ${JSON.stringify(x)}: ${m[0]}`);
	}
	const compare = /([\w$.?]+\.(type|kind)) (===|!==) ("[^"]*")/g;
	while ((m = compare.exec(region))) {
		if (!inCode(lo + m.index)) continue;
		const lit = JSON.parse(m[4]);
		const family = m[2] === "type" ? (UNIONS.block.named.includes(lit) ? UNIONS.block : UNIONS.event.named.includes(lit) ? UNIONS.event : null) : UNIONS.kind.named.includes(lit) ? UNIONS.kind : null;
		if (!family) continue;
		const join = m[3] === "===" ? "||" : "&&";
		for (const x of family.extra) if (x !== lit) add("union", lo + m.index, lo + m.index + m[0].length, `(${m[0]} ${join} ${m[1]} ${m[3]} ${JSON.stringify(x)})`);
	}
	const checkpoint = /isCompactCheckpointSource\(([^()]*)\)/g;
	while ((m = checkpoint.exec(region))) {
		if (!inCode(lo + m.index)) continue;
		for (const [key, value] of UNIONS.checkpoint.extra) {
			const test = key === "kind" ? `${m[1]}?.kind === ${JSON.stringify(value)}` : `(${m[1]}?.kind === "plugin" && ${m[1]}?.plugin === ${JSON.stringify(value)})`;
			add("union", lo + m.index, lo + m.index + m[0].length, `(${m[0]} || ${test})`);
		}
	}
	out.sort((a, b) => a.start - b.start || a.end - b.end || (a.replacement < b.replacement ? -1 : 1));
	// occurrence: how many mutants with the same line text, original and replacement come
	// earlier (the same `0` twice on a line, or one line such as `omittedBytes: 0` written
	// in three places)
	const earlier = new Map();
	out.forEach((x, i) => {
		const k = JSON.stringify([x.operator, x.lineText, x.original, x.replacement]);
		x.occurrence = earlier.get(k) ?? 0;
		earlier.set(k, x.occurrence + 1);
		x.id = i;
	});
	return out;
}

/** The key of a mutant in boundary-equivalent.json and the summaries. */
export function keyOf(x) {
	return `${x.operator} ${JSON.stringify(x.lineText)} ${JSON.stringify(x.original)}#${x.occurrence} -> ${JSON.stringify(x.replacement)}`;
}

/** src with mutant x applied. */
export function apply(src, x) {
	return src.slice(0, x.start) + x.replacement + src.slice(x.end);
}
