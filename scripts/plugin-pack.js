#!/usr/bin/env node
/**
 * `npm run plugin:pack`: packs the `blockchain` provider plugin into one self-contained tarball,
 * for `pulumi plugin install resource blockchain <version> --file <tarball>`:
 *
 *   pulumi-resource-blockchain   the executable the engine runs (a Node.js launcher)
 *   dist/ schema.json package.json
 *   node_modules/                 the runtime dependencies and @pulumi/pulumi (its gRPC stubs),
 *                                 copied from this checkout's node_modules: the versions of the
 *                                 lockfile, no download, no symlink
 *
 * Needs `npm ci` and `npm run build` done (the npm script builds first). Prints the tarball's
 * path (build/plugin/pulumi-resource-blockchain-v<version>.tar.gz) on stdout, sizes on stderr.
 */
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { execFileSync } = require("child_process");

const root = path.resolve(__dirname, "..");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const log = (line) => process.stderr.write(`plugin:pack: ${line}\n`);

/** The folder of package `name` as Node resolves it from `fromDir` (walking up node_modules). */
function packageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (fs.existsSync(path.join(candidate, "package.json"))) return candidate;
    if (dir === root || dir === path.dirname(dir)) return undefined;
  }
}

/** Every package folder the runtime needs: `names` from the root, then their dependencies, transitively. */
function closure(names) {
  const found = new Set();
  const queue = names.map((name) => ({ name, from: root, optional: false }));
  while (queue.length > 0) {
    const { name, from, optional } = queue.shift();
    const dir = packageDir(name, from);
    if (!dir) {
      if (optional) continue;
      throw new Error(
        `${name} (needed by ${path.relative(root, from) || "the package"}) is not installed: run npm ci`,
      );
    }
    if (found.has(dir)) continue;
    found.add(dir);
    const meta = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    for (const dep of Object.keys(meta.dependencies ?? {}))
      queue.push({ name: dep, from: dir, optional: false });
    for (const dep of Object.keys(meta.optionalDependencies ?? {}))
      queue.push({ name: dep, from: dir, optional: true });
  }
  return [...found].sort();
}

function main() {
  if (!fs.existsSync(path.join(root, "dist", "plugin", "main.js"))) {
    throw new Error("dist/plugin/main.js is missing: run npm run build first");
  }
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "blockchain-plugin-"));
  try {
    fs.cpSync(path.join(root, "dist"), path.join(stage, "dist"), { recursive: true });
    fs.copyFileSync(path.join(root, "schema.json"), path.join(stage, "schema.json"));
    const runtimeDeps = { ...pkg.dependencies, "@pulumi/pulumi": pkg.devDependencies["@pulumi/pulumi"] };
    const meta = { name: pkg.name, version: pkg.version, license: pkg.license, dependencies: runtimeDeps };
    fs.writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(meta, null, 2)}\n`);
    fs.writeFileSync(
      path.join(stage, "pulumi-resource-blockchain"),
      '#!/usr/bin/env node\n// The blockchain provider plugin (installed by `pulumi plugin install`).\nrequire("./dist/plugin/main.js").main();\n',
      { mode: 0o755 },
    );
    const dirs = closure(Object.keys(runtimeDeps));
    for (const dir of dirs) {
      const target = path.join(stage, path.relative(root, dir));
      // Dereference links; leave out nested node_modules (they are packages of their own, copied
      // when needed) and the .bin folders of links.
      fs.cpSync(dir, target, {
        recursive: true,
        dereference: true,
        filter: (src) => {
          const rel = path.relative(dir, src);
          return !rel.split(path.sep).includes("node_modules") && !rel.startsWith(".bin");
        },
      });
    }
    const outDir = path.join(root, "build", "plugin");
    fs.mkdirSync(outDir, { recursive: true });
    const tarball = path.join(outDir, `pulumi-resource-blockchain-v${pkg.version}.tar.gz`);
    execFileSync("tar", ["-czf", tarball, "--owner=0", "--group=0", "--sort=name", "-C", stage, "."]);
    const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    log(`${dirs.length} packages; tarball ${mb(fs.statSync(tarball).size)}`);
    log(
      `install it: pulumi plugin install resource blockchain ${pkg.version} --file ${path.relative(process.cwd(), tarball)}`,
    );
    process.stdout.write(`${tarball}\n`);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

try {
  main();
} catch (err) {
  process.stderr.write(`plugin:pack: ${err instanceof Error ? err.message : err}\n`);
  process.exit(1);
}
