/** What a measuring script's figures were taken from: the commit, and how many files of src/ differ from it. */
import { execFileSync } from "child_process";
import * as path from "path";

/** `git <short sha>[ + N uncommitted file(s) in src/]`, or `not a git checkout`. */
export function sourceState(root: string = path.resolve(__dirname, "..", "..", "..")): string {
  const git = (...a: string[]) =>
    String(execFileSync("git", a, { cwd: root, stdio: ["ignore", "pipe", "ignore"] })).trim();
  try {
    const changed = git("status", "--porcelain", "--", "src").split("\n").filter(Boolean).length;
    return `git ${git("rev-parse", "--short", "HEAD")}${changed > 0 ? ` + ${changed} uncommitted file(s) in src/` : ""}`;
  } catch {
    return "not a git checkout";
  }
}
