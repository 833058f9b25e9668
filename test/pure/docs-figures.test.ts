/** The figures the docs state about settings come from their one source: the README's table and docs/settings.md. */
import * as fs from "fs";
import * as path from "path";
import { DEFAULT_TIMEOUT_MS } from "../../src/api/options";
import { configKey, SETTINGS, SETTING_NAMES } from "../../src/settings";

const read = (file: string) => fs.readFileSync(path.join(__dirname, "..", "..", file), "utf8");
const seconds = (ms: number) => `${ms / 1000} s`;

test("the README's settings table: each setting's config key, variable, bounds and default (a write's too)", () => {
  const rows = read("README.md")
    .split("\n")
    .filter((line) => /^\| `\w+` \| `blockchain:/.test(line));
  expect(rows.map((r) => /^\| `(\w+)`/.exec(r)?.[1])).toEqual(SETTING_NAMES);
  for (const [name, row] of SETTING_NAMES.map((n, i) => [n, rows[i]] as const)) {
    const spec: { env: string; min?: number; max?: number; defaultValue?: number } = SETTINGS[name];
    const cells = row.split(" | ");
    expect(cells[1]).toContain(`\`${configKey(name)}\``);
    expect(cells[2]).toBe(`\`${spec.env}\``);
    if (spec.defaultValue === undefined) expect(cells[3]).toBe("none (required)");
    else expect(cells[3]).toMatch(new RegExp(`^\`${spec.defaultValue}\``));
    if (spec.max !== undefined) expect(cells[4]).toContain(`${spec.min} to ${spec.max}`);
  }
  const deadline = rows[SETTING_NAMES.indexOf("deadlineMs")];
  expect(deadline).toContain(`a write \`${DEFAULT_TIMEOUT_MS}\``);
});

test("docs/settings.md's deadlines: a call within the default deadline, a write within the per-attempt timeout", () => {
  const text = read("docs/settings.md").replace(/\s+/g, " ");
  expect(text).toContain(`ends within ${seconds(SETTINGS.deadlineMs.defaultValue)}`);
  expect(text).toContain(`within ${seconds(DEFAULT_TIMEOUT_MS)} (\`timeoutMs\` when it is longer)`);
});
