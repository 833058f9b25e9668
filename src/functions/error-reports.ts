/**
 * Keeps the report of an error this package lets out finite. Pulumi's Node.js language host prints
 * every uncaught error with `util.inspect(err, { colors: true })`; on Node.js releases with
 * nodejs/node#59446 and without its fix nodejs/node#64022 (20.19.6 to 20.20.x among them:
 * nodejs/node#64011) that call never returns for a stack frame whose `node_modules` path has no
 * separator after the package (`node_modules/@pulumi/output.ts:…`: Pulumi's own source maps make
 * such frames), and the process grows by hundreds of MB a second without printing the cause.
 * Applied by the functions to the errors they let out (src/functions/program.ts), to frame lines
 * only: a message, and every error the package did not make, stays as it is.
 * Held by test/program/bad-days.test.ts.
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
