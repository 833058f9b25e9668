/** What the e2e tests read of the engine's output: its Diagnostics section, its lines, a trace that must not be there. */
import { diagnostics } from "./engine";

/** A stack trace: a Node.js frame, a Python traceback, a Go panic. */
export const TRACE = /^\s+at \S|Traceback|IndexError|File "|goroutine \d+|panic:/m;

/** The engine's Diagnostics section, up to the outputs (a failed update shows the last green run's) or the resources. */
export function diagnosed(output: string): string {
  expect(output).toContain("Diagnostics:");
  return diagnostics(output);
}

/** The section's lines that start with `prefix` and contain `token`, trimmed, without its heading and blank lines. */
export const diagnosticLines = (output: string, prefix = "", token = "") =>
  diagnosed(output)
    .split("\n")
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => l !== "" && l.startsWith(prefix) && l.includes(token));

/** Its error lines that contain `token`, but the engine's own "preview failed" or "update failed". */
export const errorsWith = (output: string, token = "") =>
  diagnosticLines(output, "error:", token).filter((l) => !/^error: (preview|update) failed$/.test(l));

/**
 * What must never appear in a log of an expected failure. (Node's `PromiseRejectionHandledWarning`
 * may: Pulumi's Outputs print it for any Output that fails before the stack's exports await it, a
 * plain `pulumi.output(1).apply(() => { throw … })` too, and a library may not silence it process-wide.)
 */
export function expectQuiet(output: string): void {
  expect(output).not.toMatch(TRACE);
  expect(output).not.toMatch(/unhandled exception|UnhandledPromiseRejection/i);
  expect(output).not.toContain("node_modules");
}
