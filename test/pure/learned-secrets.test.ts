import { LearnedSecrets, MAX_LEARNED_SECRETS } from "../../src/api/learned-secrets";

describe("LearnedSecrets", () => {
  const book = new LearnedSecrets();
  book.learn([
    "pass-word-pass-word",
    "user-name",
    "https://nd-123-456-789.p2pify.com",
    "wss://ws-nd-123-456-789.p2pify.com/",
    "3c6e0b8a9c15224a8228b9a98ca1531d",
    "short",
    undefined,
  ]);

  it.each([
    ["use wss://ws-nd-123-456-789.p2pify.com with pass-word-pass-word.", "use [REDACTED] with [REDACTED]."],
    ["Invalid token for user user-name</body>", "Invalid token for user [REDACTED]</body>"],
    ['{"https":"https://nd-123-456-789.p2pify.com"}', '{"https":"[REDACTED]"}'],
    ["login user-name:pass-word-pass-word@host", "login [REDACTED]:[REDACTED]@host"],
    ["path /v1/3c6e0b8a9c15224a8228b9a98ca1531d/rpc", "path /v1/[REDACTED]/rpc"],
    ["key=3c6e0b8a9c15224a8228b9a98ca1531d&x=1", "key=[REDACTED]&x=1"],
    ["short words stay: short, user, name", "short words stay: short, user, name"],
  ])("%s", (input, expected) => {
    expect(book.redact(input)).toBe(expected);
  });

  it("is bounded, forgetting the oldest first", () => {
    const b = new LearnedSecrets();
    for (let i = 0; i < MAX_LEARNED_SECRETS + 10; i++) b.learn([`secret-value-${i}`]);
    expect(b.size).toBe(MAX_LEARNED_SECRETS);
    expect(b.redact("secret-value-0")).toBe("secret-value-0");
    expect(b.redact(`secret-value-${MAX_LEARNED_SECRETS + 9}`)).toBe("[REDACTED]");
  });

  it("runs in linear time on 1 MB of hostile text, whatever the number of credentials", () => {
    const b = new LearnedSecrets();
    for (let i = 0; i < MAX_LEARNED_SECRETS; i++) b.learn([`pw-${i}-abcdef`]);
    const inputs = [
      "a".repeat(1 << 20),
      "a/".repeat(1 << 19),
      "=a".repeat(1 << 19),
      "pw-1-abcdef ".repeat(80_000),
    ];
    const started = performance.now();
    for (const text of inputs) b.redact(text);
    // Generous: linear work takes well under a second here; anything quadratic would take minutes.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
