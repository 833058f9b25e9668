/** The package stands alone: its metadata is complete, and every relative link of its docs resolves inside the tarball. */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");

/** The files `npm pack` puts in the tarball (the build's own files included when they exist). */
function packedFiles(): Set<string> {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const [pack] = JSON.parse(out) as { files: { path: string }[] }[];
  return new Set(pack.files.map((f) => f.path));
}

/** The relative link targets of a Markdown file (no URL, no anchor-only link), as paths from the package root. */
function relativeLinks(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8").replace(/```[\s\S]*?```/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1].split("#")[0])
    .filter((target) => target !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) =>
      path.posix.normalize(path.posix.join(path.posix.dirname(file), target)).replace(/\/$/, ""),
    );
}

test("package.json says where the package lives, where to report a bug, and its license", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  expect(pkg.repository.url).toMatch(/^git\+https:\/\/github\.com\/.+\.git$/);
  expect(pkg.homepage).toMatch(/^https:\/\//);
  expect(pkg.bugs.url).toMatch(/^https:\/\/.+\/issues$/);
  expect(pkg.license).toBe("Apache-2.0");
});

test("every relative link of the README and docs/ resolves inside the packed package", () => {
  const files = packedFiles();
  // docs/_index.md and installation-configuration.md are the Pulumi Registry's pages: their links are the site's.
  const registry = new Set(["docs/_index.md", "docs/installation-configuration.md"]);
  const docs = [...files].filter(
    (f) => f === "README.md" || (f.startsWith("docs/") && f.endsWith(".md") && !registry.has(f)),
  );
  expect(docs.length).toBeGreaterThan(5);
  const broken = docs.flatMap((doc) =>
    relativeLinks(doc)
      .filter((target) => !files.has(target) && ![...files].some((f) => f.startsWith(`${target}/`)))
      .map((target) => `${doc} -> ${target}`),
  );
  expect(broken).toEqual([]);
});

test("the README is a user's guide of at most 460 lines, from its first section: Install", () => {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  expect(readme.split("\n").length - 1).toBeLessThanOrEqual(460);
  expect(readme.match(/^## .*$/m)?.[0]).toBe("## Install");
});

test("every install command of the README and docs/ names this version, and the plugin's server as Pulumi resolves it", () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  // performance.md and reliability.md record figures measured on a version, which they name.
  const recorded = ["docs/performance.md", "docs/reliability.md"];
  const files = ["README.md", ...fs.readdirSync(path.join(ROOT, "docs")).map((f) => `docs/${f}`)].filter(
    (f) => f.endsWith(".md") && !recorded.includes(f),
  );
  const versioned = [
    /plugin install resource blockchain (\d+\.\d+\.\d+)/g,
    /pulumi_blockchain(?:==|-)(\d+\.\d+\.\d+)/g,
    /pulumi-blockchain@(\d+\.\d+\.\d+)/g,
    /sdk\/go\/blockchain@v(\d+\.\d+\.\d+)/g,
    /pulumi-blockchain-nodes-(\d+\.\d+\.\d+)\.tgz/g,
    /resource-blockchain-v(\d+\.\d+\.\d+)/g,
  ];
  const wrong = files.flatMap((file) => {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const stale = versioned.flatMap((re) =>
      [...text.matchAll(re)].filter((m) => m[1] !== version).map((m) => m[0]),
    );
    const servers = [...text.matchAll(/--server (\S+)/g)]
      .map((m) => m[1])
      .filter((s) => !s.startsWith("github://"));
    return [...stale, ...servers].map((what) => `${file}: ${what}`);
  });
  expect(wrong).toEqual([]);
});
