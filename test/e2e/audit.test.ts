/** The secrets audit used by the end-to-end tier finds what it looks for (a control for its "nothing found"). */
import * as fs from "fs";
import * as path from "path";
import { findSecrets } from "../helpers/audit";
import { withTempDir } from "../helpers/env";

const dir = withTempDir("pbn-audit-");

test("findSecrets reports plaintext and JSON-escaped secrets in files and texts, without revealing them", () => {
  const url = "https://nd-1.example/3c6e0b8a9c15224a8228b9a98ca1531d";
  const file = path.join(dir(), "stack.json");
  fs.writeFileSync(file, JSON.stringify({ outputs: { endpoint: url } }));
  const clean = path.join(dir(), "clean.json");
  fs.writeFileSync(clean, JSON.stringify({ outputs: { endpoint: "[secret]" } }));
  const findings = findSecrets([url, "pass-word-pass"], {
    files: [file, clean],
    texts: { log: 'password: "pass-word-pass"', quiet: "nothing here" },
  });
  const places = findings.map((f) => f.where);
  expect(places).toHaveLength(2);
  expect(places.some((w) => w.endsWith("stack.json"))).toBe(true);
  expect(places).toContain("log");
  expect(JSON.stringify(findings)).not.toContain(url);
  expect(JSON.stringify(findings)).not.toContain("pass-word-pass");
});
