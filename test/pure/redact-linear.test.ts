import { performance } from "node:perf_hooks";
import { createRedactor, previewBody, redact, sanitizeServerText } from "../../src/api/redact";
import { maskEndpoint } from "../../src/provider/node-views";

/**
 * Redaction and masking read text from servers, so they must run in time linear in its length.
 * The regular expressions these functions once used backtracked catastrophically: 2,000 `;key`
 * fragments took 11 s and 4,000 about 100 s, growing with the cube of the length. Each input here is about 1 MB; a linear scanner
 * handles each in well under a second, a quadratic one would take minutes.
 */

// A regression should fail on the time assertions below, not on jest's default timeout.
jest.setTimeout(600_000);

const SIZE = 1 << 20;
const LIMIT_MS = 5_000;

/** `unit` repeated up to about SIZE characters. */
function fill(unit: string, size = SIZE): string {
  return unit.repeat(Math.ceil(size / unit.length));
}

const ADVERSARIAL: Record<string, string> = {
  ";key": fill(";key"),
  "?a&b;key": fill("?a&b;key"),
  "?key=": fill("?key="),
  "&=": fill("&="),
  "Bearer ": fill("Bearer "),
  "bearer\\t": fill("bearer\t"),
  "https://": fill("https://"),
  "https://a@": fill("https://a@"),
  "a://": fill("a://"),
  "://@": fill("://@"),
  '"password":"': fill('"password":"'),
  '"auth_key" : ': fill('"auth_key" : '),
  '\\"token\\":\\"': fill('\\"token\\":\\"'),
  "backslashes then quote": `${fill("\\")}"`,
  quotes: fill('"'),
  "authorization: ": fill("authorization: "),
  "authorization: Basic ": fill("authorization: Basic "),
  "token chars": fill("a"),
  "key-like run": fill("a1"),
  "base64 run": fill("Zm9v+YmFy/="),
  percent: fill("%"),
  "percent bytes": fill("%41%zz"),
  spaces: fill(" "),
  "url with long path": `https://h.example/${fill("a1/")}`,
  "url with long host": `https://${fill("a1.")}example.com/`,
  "url with many params": `https://h.example/?${fill("a=1&")}`,
  "url with long fragment": `https://h.example/#${fill("k=v/")}`,
  "url with long userinfo": `https://${fill("u:")}@h/`,
  mix: fill(';key?a&b https://a@b/c1d2e3f4g5h6i7j8k9/ "auth_key":"x\\" Bearer authorization: =&'),
};

function timed<T>(run: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = run();
  return { ms: performance.now() - start, value };
}

describe("linear time on ~1 MB adversarial inputs", () => {
  const report: string[] = [];
  let total = 0;

  afterAll(() => {
    // The figures, for whoever looks at the test output.
    process.stdout.write(`redact-linear: total ${Math.round(total)} ms\n${report.join("\n")}\n`);
  });

  it.each(Object.keys(ADVERSARIAL))("redact: %s", (name) => {
    const input = ADVERSARIAL[name];
    const { ms, value } = timed(() => redact(input, ["sk_live_abcdef0123456789", "aaaaaaaa"]));
    total += ms;
    report.push(`redact ${name}: ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(LIMIT_MS);
    expect(value.length).toBeLessThanOrEqual(10 * input.length + 10);
  });

  it.each(Object.keys(ADVERSARIAL))("previewBody: %s", (name) => {
    const input = ADVERSARIAL[name];
    const redactor = createRedactor(["sk_live_abcdef0123456789"]);
    const { ms, value } = timed(() => previewBody(input, redactor));
    total += ms;
    report.push(`previewBody ${name}: ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(LIMIT_MS);
    expect(value.length).toBeLessThanOrEqual(201);
  });

  it.each(Object.keys(ADVERSARIAL))("maskEndpoint: %s in a URL", (name) => {
    const tail = ADVERSARIAL[name];
    const half = tail.slice(0, tail.length / 2);
    for (const url of [tail, `https://h.example/${tail}`, `https://h.example/?x=${half}#${half}`]) {
      const { ms } = timed(() => maskEndpoint(url, ["aaaaaaaa", "key;key;", "user-name"]));
      total += ms;
      report.push(`maskEndpoint ${name} (${url.slice(0, 20)}…): ${ms.toFixed(0)} ms`);
      expect(ms).toBeLessThan(LIMIT_MS);
    }
  });

  it.each(Object.keys(ADVERSARIAL))("sanitizeServerText: %s", (name) => {
    const input = ADVERSARIAL[name];
    for (const max of [200, Infinity]) {
      const { ms } = timed(() => sanitizeServerText(input, max));
      total += ms;
      expect(ms).toBeLessThan(LIMIT_MS);
    }
  });

  it("all of them together stay far from the minutes a backtracking pattern takes", () => {
    expect(total).toBeLessThan(60_000);
  });
});
