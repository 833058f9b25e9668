/**
 * Docs that cannot drift. Each version or time a reader is told has one place, which the scripts
 * read too (CONTRIBUTING.md, "Versions and times"). A failure names the file, the line, what it says
 * and the right value.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { DEFAULT_TIMEOUT_MS } from "../../src/api/options";
import { configKey, SETTINGS, SETTING_NAMES } from "../../src/settings";

const ROOT = path.resolve(__dirname, "..", "..");
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), "utf8");
const json = (file: string) => JSON.parse(read(file));
const filesIn = (dir: string, name: RegExp): string[] =>
  fs
    .readdirSync(path.join(ROOT, dir))
    .filter((f) => name.test(f))
    .sort()
    .map((f) => `${dir}/${f}`);

/** Where readers are told versions and times. CHANGELOG.md is history: it keeps the old ones. */
const DOCS = ["README.md", "CONTRIBUTING.md", ...filesIn("docs", /\.md$/)];
const SCANNED = [
  ...DOCS,
  ...filesIn("scripts", /\.sh$/),
  ".ci/run",
  ...filesIn(".github/workflows", /\.ya?ml$/),
  ...filesIn("examples/ci", /\.ya?ml$/),
  "test/helpers/engine.ts",
  "package.json",
];

/** `1.24` and `1.24.0` are one version; `v3.1.0` and `3.1` too. */
const norm = (v: string): string => v.replace(/^v/, "").replace(/(\.0)+$/, "");
const newer = (a: string, b: string): boolean => {
  const [x, y] = [a, b].map((v) => norm(v).split(".").map(Number));
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  return false;
};
/** The `go` line of a go.mod. */
const goLine = (file: string): string => /^go (\S+)$/m.exec(read(file))![1];
/** The lowest version a range such as `^20.12||^22||>=24` or `>=3.142.0 <4.0.0` admits. */
const lowest = (range: string): string =>
  range
    .split("||")
    .map((r) => /\d+(\.\d+)*/.exec(r)![0])
    .reduce((a, b) => (newer(a, b) ? b : a));

const pkg = json("package.json");
const versions = json("versions.json");
const engineGoMods = fs
  .readdirSync(path.join(ROOT, "tools/pulumi-engine"))
  .map((d) => `tools/pulumi-engine/${d}/go.mod`)
  .filter((f) => fs.existsSync(path.join(ROOT, f)));

interface Fact {
  name: string;
  value: string;
  /** The one place it comes from. */
  from: string;
  /** Its mentions: the captured groups are the value (two groups: a range, "N to M"). */
  pattern: RegExp;
  /** Only in these files (default: all scanned). */
  files?: RegExp;
}

/**
 * The facts, most specific first: a mention taken by one fact is not read again by a later one
 * (a Go version near "sdk-gen" is sdk-gen's, any other the engine's).
 */
const FACTS: Fact[] = [
  {
    name: "Go minimum of tools/sdk-gen (npm run sdk:gen)",
    value: goLine("tools/sdk-gen/go.mod"),
    from: "the go line of tools/sdk-gen/go.mod",
    pattern: /\bsdk[-:]gen\b[\s\S]{0,100}?\bGo (\d+\.\d+(?:\.\d+)?)/g,
  },
  {
    name: "Go minimum of the engine build",
    value: engineGoMods.map(goLine).reduce((a, b) => (newer(b, a) ? b : a)),
    from: "the highest go line of tools/pulumi-engine/*/go.mod",
    pattern: /\bGo (\d+\.\d+(?:\.\d+)?)\b/g,
  },
  {
    name: "Node.js minimum for contributors",
    value: lowest(json("package-lock.json").packages["node_modules/dependency-cruiser"].engines.node),
    from: "engines.node of dependency-cruiser in package-lock.json",
    pattern: /\bNode(?:\.js)? (\d+(?:\.\d+)*) or\s+(?:later|newer)/g,
    files: /^CONTRIBUTING\.md$/,
  },
  {
    name: "Node.js minimum",
    value: lowest(pkg.engines.node),
    from: "engines.node of package.json",
    pattern: /\bNode(?:\.js)? (\d+(?:\.\d+)*) or\s+(?:later|newer)/g,
  },
  {
    name: "Pulumi CLI version",
    value: /^\s*(?:require\s+)?github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/m.exec(
      read("tools/pulumi-engine/cli/go.mod"),
    )![1],
    from: "the pkg/v3 that tools/pulumi-engine/cli/go.mod requires",
    pattern:
      /(?:\bPulumi CLI |\bthe CLI |\bengine\/|\bpulumi-version:\s*["']?|\bENGINE_VERSION = ")v?(\d+\.\d+\.\d+)/g,
  },
  {
    name: "@pulumi/pulumi floor",
    value: lowest(pkg.peerDependencies["@pulumi/pulumi"]),
    from: "peerDependencies of package.json",
    pattern:
      /`@pulumi\/pulumi` \((\d+\.\d+(?:\.\d+)?) or\s+later\)|"@pulumi\/pulumi": "\^(\d+\.\d+\.\d+)"|\bnpm:@pulumi\/pulumi@(\d+\.\d+\.\d+)|\bwith (\d+\.\d+\.\d+) too\b/g,
  },
  {
    name: "@pulumi/pulumi the tests run",
    value: pkg.devDependencies["@pulumi/pulumi"],
    from: "devDependencies of package.json",
    pattern: /`@pulumi\/pulumi` (\d+\.\d+\.\d+)|\bdynamic-provider host\s+\((\d+\.\d+(?:\.\d+)?)\)/g,
  },
  {
    name: "Python minimum of the engine",
    value: versions.python.min,
    from: "python.min of versions.json",
    pattern: /\bPython (\d+\.\d+) or\s+(?:later|newer)/g,
  },
  {
    name: "pulumi Python SDK of the engine",
    value: versions.python.pulumiSdk,
    from: "python.pulumiSdk of versions.json",
    pattern: /\bPython SDK (\d+\.\d+\.\d+)|\bpulumi==(\d+\.\d+\.\d+)/g,
  },
  {
    name: "the engine's first build, in minutes",
    value: versions.engine.firstBuildMinutes,
    from: "engine.firstBuildMinutes of versions.json",
    pattern: /\b(\d+)\s*(?:to|-|–)\s*(\d+)\s+min(?:utes)?\b/g,
  },
];

interface Mention {
  fact: Fact;
  file: string;
  line: number;
  stated: string;
}

function mentions(): Mention[] {
  const found: Mention[] = [];
  for (const file of SCANNED) {
    const text = read(file);
    const taken = new Set<number>();
    for (const fact of FACTS) {
      if (fact.files && !fact.files.test(file)) continue;
      for (const m of text.matchAll(fact.pattern)) {
        const groups = m.slice(1).filter((g): g is string => g !== undefined);
        const at = m.index! + m[0].lastIndexOf(groups[0]);
        if (taken.has(at)) continue;
        taken.add(at);
        const line = text.slice(0, at).split("\n").length;
        found.push({ fact, file, line, stated: groups.join(" to ") });
      }
    }
  }
  return found;
}

const same = (stated: string, value: string): boolean =>
  stated.includes(" to ") ? stated === value : norm(stated) === norm(value);

test("every version and time the docs, scripts and CI files state is the one of its source", () => {
  const wrong = mentions()
    .filter((m) => !same(m.stated, m.fact.value))
    .map(
      (m) =>
        `${m.file}:${m.line}: ${m.fact.name} says ${m.stated}; the right value is ${m.fact.value} (${m.fact.from})`,
    );
  expect(wrong).toEqual([]);
});

test("each fact is stated somewhere the check reads (else its pattern no longer matches the docs)", () => {
  const stated = new Set(mentions().map((m) => m.fact.name));
  expect(FACTS.map((f) => f.name).filter((name) => !stated.has(name))).toEqual([]);
});

test("the engine and sdk-gen scripts read their versions instead of restating them", () => {
  const restated = ["scripts/pulumi-engine.sh", "scripts/gen-sdk.sh"].flatMap((file) =>
    read(file)
      .split("\n")
      .map((text, i) => ({ text, at: `${file}:${i + 1}` }))
      .filter(({ text }) => /^\s*(?:readonly\s+)?[A-Z_]*(?:VERSION|_MIN)=["']?v?\d/.test(text))
      .map(({ text, at }) => `${at}: ${text.trim()}`),
  );
  expect(restated).toEqual([]);
});

test("every repository file the docs name exists", () => {
  const missing = DOCS.flatMap((file) =>
    read(file)
      .split("\n")
      .flatMap((text, i) =>
        [
          ...text.matchAll(
            /(?<![\w./-])((?:test|scripts|tools|src|examples)\/[\w./-]+\.(?:ts|js|sh|json|ya?ml|mod))\b/g,
          ),
        ]
          .map((m) => m[1])
          .filter((p) => !fs.existsSync(path.join(ROOT, p)))
          .map((p) => `${file}:${i + 1}: ${p}`),
      ),
  );
  expect(missing).toEqual([]);
});

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
