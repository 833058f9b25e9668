import { sanitizeServerText } from "../../src/api/redact";

describe("sanitizeServerText", () => {
  it("keeps ordinary text as it is", () => {
    expect(sanitizeServerText("Invalid input: name may not be blank. «ok» 😀", 1000)).toBe(
      "Invalid input: name may not be blank. «ok» 😀",
    );
  });

  it("renders terminal control sequences harmless and visible", () => {
    expect(sanitizeServerText("a\u001b[2Jb", 100)).toBe("a\\u001b[2Jb");
    expect(sanitizeServerText("\u001b]0;title\u0007x", 100)).toBe("\\u001b]0;title\\u0007x");
    expect(sanitizeServerText("\u009b31m", 100)).toBe("\\u009b31m");
    expect(sanitizeServerText("a\u007fb\u0000c", 100)).toBe("a\\u007fb\\u0000c");
  });

  it("keeps one server message on one line: CR, LF, tab and separators are escaped", () => {
    expect(sanitizeServerText("real error\rfake: all good", 100)).toBe("real error\\rfake: all good");
    expect(sanitizeServerText("line1\nline2\r\n\tx", 100)).toBe("line1\\nline2\\r\\n\\tx");
    expect(sanitizeServerText("a\u2028b\u2029c", 100)).toBe("a\\u2028b\\u2029c");
  });

  it("escapes bidi controls that reorder displayed text, and lone surrogates", () => {
    expect(sanitizeServerText("abc\u202edef\u2066", 100)).toBe("abc\\u202edef\\u2066");
    expect(sanitizeServerText("x\ud800y\udc00", 100)).toBe("x\\ud800y\\udc00");
  });

  it("caps the text and says how much was left out", () => {
    expect(sanitizeServerText("abcdefghij", 4)).toBe("abcd… (6 more characters)");
    expect(sanitizeServerText("abcde", 4)).toBe("abcd… (1 more character)");
    expect(sanitizeServerText("abcd", 4)).toBe("abcd");
    expect(sanitizeServerText("abc", 0)).toBe("… (3 more characters)");
  });

  it("never splits an escape or a surrogate pair at the cut; counts code points", () => {
    expect(sanitizeServerText("ab\u001bc", 4)).toBe("ab… (2 more characters)");
    expect(sanitizeServerText("a😀😀", 2)).toBe("a… (2 more characters)");
    expect(sanitizeServerText("a😀😀", 3)).toBe("a😀… (1 more character)");
    const out = sanitizeServerText("😀".repeat(1000), 101);
    expect(out).toBe(`${"😀".repeat(50)}… (950 more characters)`);
  });

  it("handles 1 MB inputs quickly, capped or not", () => {
    const big = "\u001b[2J\r".repeat(1 << 18);
    const start = Date.now();
    const capped = sanitizeServerText(big, 200);
    const full = sanitizeServerText(big, Infinity);
    expect(Date.now() - start).toBeLessThan(5_000);
    expect(capped.startsWith("\\u001b[2J\\r")).toBe(true);
    expect(capped).toMatch(/… \(\d+ more characters\)$/);
    expect([...full].some((ch) => ch.charCodeAt(0) < 0x20 || (ch >= "\u007f" && ch <= "\u009f"))).toBe(false);
    expect(full.length).toBe((1 << 18) * "\\u001b[2J\\r".length);
  });

  it("treats NaN and negative limits as zero", () => {
    expect(sanitizeServerText("ab", NaN)).toBe("… (2 more characters)");
    expect(sanitizeServerText("ab", -3)).toBe("… (2 more characters)");
  });
});
