/**
 * What the figures of a measuring script (bench, reliability, soak) were taken from: the commit of
 * the sources, and how many files of src/ differ from it (the figures are of the working tree).
 */
import { execFileSync } from "child_process";
import * as path from "path";

/** The checkout: each script is compiled to build/<name>/scripts/, three folders below it. */
const ROOT = path.resolve(__dirname, "..", "..", "..");

/** `git <short sha>[ + N uncommitted file(s) in src/]`, or `not a git checkout`. */
export function sourceState(root: string = ROOT): string {
  try {
    const git = (...a: string[]) =>
      execFileSync("git", a, { cwd: root, stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trim();
    const changed = git("status", "--porcelain", "--", "src").split("\n").filter(Boolean).length;
    return `git ${git("rev-parse", "--short", "HEAD")}${changed > 0 ? ` + ${changed} uncommitted file(s) in src/` : ""}`;
  } catch {
    return "not a git checkout";
  }
}
