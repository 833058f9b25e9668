import * as fs from "fs";
import * as path from "path";
import { compileReadmeBlock } from "./readme";

const root = path.resolve(__dirname, "..", "..");

/** Where {@link programProject} writes its projects. */
export const PROGRAM_PROJECTS_DIR = path.join(root, "build", "e2e-programs");

/**
 * A Pulumi project on disk whose program is the TypeScript `code`, type-checked (strict) and
 * compiled against the built package, so that the nodejs language host runs it as `pulumi up`
 * would. Its folder, `build/e2e-programs/<name>/`, holds `Pulumi.yaml`, a `package.json` of its
 * own (else the language host would take the repository's `main`) and an `index.js` that
 * re-exports the compiled program. Returns the folder.
 */
export function programProject(name: string, code: string): string {
  const compiled = compileReadmeBlock(`e2e-${name}`, code);
  const dir = path.join(PROGRAM_PROJECTS_DIR, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: e2e-${name}\nruntime: nodejs\nmain: index.js\n`);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `e2e-${name}`, main: "index.js" }));
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
