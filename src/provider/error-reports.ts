/**
 * Keeps the report of an error this package lets out finite. Pulumi's Node.js language host prints every
 * uncaught error with `util.inspect(err, { colors: true })`; on Node.js releases with nodejs/node#59446 and
 * without its fix nodejs/node#64022 (20.19.6 to 20.20.x among them: nodejs/node#64011) that call never
 * returns for a stack frame whose `node_modules` path has no separator after the package
 * (`node_modules/@pulumi/output.ts:…`: Pulumi's own source maps make such frames), and the process grows by
 * hundreds of MB a second without printing the cause. Applied to frame lines only, never to a message: by the
 * functions to the errors they let out; and, on the affected releases only, to every uncaught error of a
 * program once it declares a resource or calls a function of the package (never at import), since Pulumi's
 * own errors (a resource that failed to register) carry such frames and would hang the run. Held by
 * test/program/bad-days.test.ts and the bad-day matrix (test/e2e/bad-days.test.ts).
 */

/** A stack frame the affected `util.inspect` loops on: after `node_modules/` (and a scope), no further separator. */
const LOOPING_FRAME = /^(\s+at .*[\\/]node_modules[\\/](?:@[^\\/\s]*[\\/])?)([^\\/]*)$/;

/** `error` (and its `cause`s) with each looping frame's path marked `…/`: the same frames, finite to inspect. */
export function finiteStacks(error: unknown, depth = 0): unknown {
  if (typeof error !== "object" || error === null || depth > 8) return error;
  const e = error as { stack?: unknown; cause?: unknown };
  try {
    if (typeof e.stack === "string" && e.stack.includes("node_modules")) {
      const lines = e.stack.split("\n").map((line) => line.replace(LOOPING_FRAME, "$1…/$2"));
      e.stack = lines.join("\n");
    }
    if ("cause" in e && e.cause !== error) finiteStacks(e.cause, depth + 1);
  } catch {
    // A frozen error or a throwing getter: left as it is.
  }
  return error;
}

/** Whether this Node.js release's colored `util.inspect` loops on such frames: 20.19.6 and later 20.x (nodejs/node#64011). */
export function inspectLoops(version = process.versions.node): boolean {
  const [major, minor, patch] = version.split(".").map(Number);
  return major === 20 && (minor > 19 || (minor === 19 && patch >= 6));
}

let guarding = false;

/**
 * On an affected release, where a host already reports uncaught errors (a Pulumi program), makes
 * their looping frame lines finite before that host prints them ({@link finiteStacks}: frames
 * only, messages never). Elsewhere, and on other releases, nothing is installed.
 */
export function guardFrames(version = process.versions.node): void {
  if (guarding || !inspectLoops(version)) return;
  for (const event of ["uncaughtException", "unhandledRejection"] as const)
    if (process.listenerCount(event) === 0) return;
  guarding = true;
  process.prependListener("uncaughtException", (error) => finiteStacks(error));
  process.prependListener("unhandledRejection", (reason) => finiteStacks(reason));
}
