/**
 * Keeps a failing program's report finite. Pulumi's Node.js language host prints every uncaught
 * error with `util.inspect(err, { colors: true })`; on Node.js releases without nodejs/node#64022
 * (20.20.x among them) that call never returns for a stack line whose `node_modules` path has no
 * separator after the package (`node_modules/@pulumi/output.ts:…`: Pulumi's own source maps make
 * such lines), and the process grows by hundreds of MB a second without printing the cause.
 */

/** A stack line the affected `util.inspect` loops on: after `node_modules/` (and a scope), no further separator. */
const LOOPING_PATH = /([\\/]node_modules[\\/](?:@[^\\/\s]*[\\/])?)([^\\/]*)$/;

/** `error` (and its `cause`s) with each looping stack line's path marked `…/`: the same text, finite to inspect. */
export function finiteStacks(error: unknown, depth = 0): unknown {
  if (typeof error !== "object" || error === null || depth > 8) return error;
  const e = error as { stack?: unknown; cause?: unknown };
  try {
    if (typeof e.stack === "string" && e.stack.includes("node_modules")) {
      const lines = e.stack.split("\n").map((line) => line.replace(LOOPING_PATH, "$1…/$2"));
      e.stack = lines.join("\n");
    }
    if ("cause" in e && e.cause !== error) finiteStacks(e.cause, depth + 1);
  } catch {
    // A frozen error or a throwing getter: left as it is.
  }
  return error;
}

let guarding = false;

/**
 * Makes every uncaught error finite to inspect before the handlers already in place see it. Only
 * where a host handles them already (a Pulumi program): elsewhere Node's default, ending the process, stays.
 */
export function guardErrorReports(): void {
  if (guarding) return;
  for (const event of ["uncaughtException", "unhandledRejection"] as const) {
    if (process.listenerCount(event) === 0) return;
  }
  guarding = true;
  process.prependListener("uncaughtException", (error) => finiteStacks(error));
  process.prependListener("unhandledRejection", (reason) => finiteStacks(reason));
}
