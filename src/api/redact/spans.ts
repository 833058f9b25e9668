/**
 * Spans: sorted lists of `[start, end)` pairs, flattened (`[s0, e0, s1, e1, …]`), and the known-
 * text search (Knuth-Morris-Pratt) that produces them. Linear time.
 */

/** The union of two sorted span lists, sorted and merged (touching spans become one). */
export function unionSpans(a: number[], b: number[]): number[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let s: number;
    let e: number;
    if (j >= b.length || (i < a.length && a[i] <= b[j])) {
      s = a[i];
      e = a[i + 1];
      i += 2;
    } else {
      s = b[j];
      e = b[j + 1];
      j += 2;
    }
    const n = out.length;
    if (n > 0 && s <= out[n - 1]) {
      if (e > out[n - 1]) out[n - 1] = e;
    } else {
      out.push(s, e);
    }
  }
  return out;
}

/** Adds `[s, e)` to a span list built in increasing order of `s`. */
export function pushSpan(spans: number[], s: number, e: number): void {
  if (e <= s) return;
  const n = spans.length;
  if (n > 0 && s <= spans[n - 1]) {
    if (e > spans[n - 1]) spans[n - 1] = e;
  } else {
    spans.push(s, e);
  }
}

/** `text` with every span replaced by `replacement`. */
export function replaceSpans(text: string, spans: number[], replacement: string): string {
  if (spans.length === 0) return text;
  const parts: string[] = [];
  let last = 0;
  for (let k = 0; k < spans.length; k += 2) {
    parts.push(text.slice(last, spans[k]), replacement);
    last = spans[k + 1];
  }
  parts.push(text.slice(last));
  return parts.join("");
}

/**
 * Every occurrence of `pattern` in `text` (overlapping ones included) as a merged span list:
 * Knuth-Morris-Pratt, O(text + pattern) whatever the input.
 */
export function occurrences(text: string, pattern: string): number[] {
  const m = pattern.length;
  const spans: number[] = [];
  if (m === 0 || m > text.length || text.indexOf(pattern) < 0) return spans;
  const fail = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    const c = pattern.charCodeAt(i);
    while (k > 0 && c !== pattern.charCodeAt(k)) k = fail[k - 1];
    if (c === pattern.charCodeAt(k)) k++;
    fail[i] = k;
  }
  for (let i = 0, k = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    while (k > 0 && c !== pattern.charCodeAt(k)) k = fail[k - 1];
    if (c === pattern.charCodeAt(k)) k++;
    if (k === m) {
      pushSpan(spans, i + 1 - m, i + 1);
      k = fail[k - 1];
    }
  }
  return spans;
}
