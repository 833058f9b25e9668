/**
 * The e2e tier's face of the engine runner (`scripts/engine-sandbox.ts`, shared with the scripts):
 * the runner itself, and what only jest needs: a describe that skips (or fails in CI) without
 * the engine, and assertions on what the engine lists.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { findEngine, type EngineRun } from "../../scripts/engine-sandbox";

export * from "../../scripts/engine-sandbox";

/** The engine's Python host, for {@link describeWithEngine}'s `needs`. */
export const PYTHON_HOST = ["pulumi-language-python", "pulumi-language-python-exec", "pulumi-python"];

const inCi = (): boolean => process.env.CI === "true" || process.env.CI === "1";

/**
 * `describe`, or `describe.skip` printing why when the engine or one of `needs` is missing: more
 * executables next to `pulumi` (`pulumi-language-yaml`, ...) or absolute paths (`/proc/self/stat`).
 * Under CI=true a missing piece is an error: the tier is required there.
 */
export function describeWithEngine(needs: readonly string[] = []): jest.Describe {
  const found = findEngine();
  const missing = "dir" in found ? needs.filter((need) => !fs.existsSync(path.resolve(found.dir, need))) : [];
  const reason =
    "reason" in found
      ? found.reason
      : missing.length > 0
        ? `no ${missing.join(", ")} (bash scripts/pulumi-engine.sh provisions the engine's)`
        : undefined;
  if (reason === undefined) return describe;
  if (inCi()) throw new Error(`the end-to-end tier is required in CI: ${reason}`);
  console.warn(`skipping the end-to-end tier: ${reason}`);
  return describe.skip;
}

/**
 * The `go` on PATH; without one, an error under CI=true (the tier is required there), else
 * undefined after a warning naming what is skipped.
 */
export function goOnPath(skipped: string): string | undefined {
  try {
    return execFileSync("bash", ["-c", "command -v go"]).toString().trim();
  } catch {
    if (inCi()) throw new Error("go is not on PATH");
    console.warn(`skipping ${skipped}: go is not on PATH`);
    return undefined;
  }
}

/** `pulumi plugin ls` of the run's sandbox lists the `blockchain` resource plugin at `version`. */
export async function expectPluginListed(run: EngineRun, version: string): Promise<void> {
  const listed: unknown = JSON.parse(await run.ok(run.sandbox.dir, ["plugin", "ls", "--json"]));
  const plugin = expect.objectContaining({ name: "blockchain", kind: "resource", version });
  expect(listed).toEqual(expect.arrayContaining([plugin]));
}
