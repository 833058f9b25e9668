import { execFile } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { promisify } from "util";
import { compileReadmeBlock } from "./readme";

/**
 * A Pulumi project in `build/e2e-programs/<name>/` (made afresh) whose program is the TypeScript
 * `code`, type-checked and compiled against the built package; its own package.json keeps the
 * language host off the repository's `main`. Returns the folder. `options.project` names the
 * project (default `e2e-<name>`); `options.dir` puts it elsewhere inside the repository (where
 * the language host finds `@pulumi/pulumi`).
 */
export function programProject(
  name: string,
  code: string,
  options: { project?: string; dir?: string } = {},
): string {
  const compiled = compileReadmeBlock(`e2e-${name}`, code);
  const dir = options.dir ?? path.resolve(__dirname, "..", "..", "build", "e2e-programs", name);
  const project = options.project ?? `e2e-${name}`;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${project}\nruntime: nodejs\nmain: index.js\n`);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: project, main: "index.js" }));
  fs.writeFileSync(
    path.join(dir, "index.js"),
    `module.exports = require(${JSON.stringify(path.relative(dir, compiled).split(path.sep).join("/"))});\n`,
  );
  return dir;
}

/** How often `needle` occurs in `text`. */
export function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** `npm install <tarball> <more…>` in `dir`, offline, with no lockfile, install script, audit or funding message. */
export async function npmInstall(dir: string, tarball: string, ...more: string[]): Promise<void> {
  const quiet = ["--offline", "--no-package-lock", "--ignore-scripts", "--no-audit", "--no-fund"];
  await promisify(execFile)("npm", ["install", tarball, ...quiet, ...more], { cwd: dir });
}
