/**
 * Where the Pulumi engine runs for the demo, the soak, the upgrade baseline and the end-to-end
 * tests: a temp folder with a `file://` backend and `PULUMI_HOME`, a passphrase secrets provider,
 * no update check or plugin download. Nothing leaves the machine or touches the user's setup.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { PulumiCommand } from "@pulumi/pulumi/automation";

import { ROOT } from "./doc-blocks";

export { ROOT };

/** The engine's folder: PULUMI_ENGINE_DIR, else what `scripts/pulumi-engine.sh` provisions. */
export function provisionEngine(): string {
  if (process.env.PULUMI_ENGINE_DIR) return process.env.PULUMI_ENGINE_DIR;
  const out = execFileSync("bash", [path.join(ROOT, "scripts", "pulumi-engine.sh")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return out.toString().trim().split("\n").pop()!;
}

/** The temp folder (a workspace may use it as its work dir), the engine's variables and command. */
export interface EngineSandbox {
  dir: string;
  backendDir: string;
  homeDir: string;
  envVars: Record<string, string>;
  command: PulumiCommand;
  cleanup(): void;
}

/**
 * PATH for the engine: the engine, then the folder of the dynamic providers' plugin
 * (`pulumi-resource-pulumi-nodejs` of `@pulumi/pulumi` in `nodeModules`, else this repository's).
 */
export function enginePath(engineDir: string, nodeModules?: string): string {
  const pulumiDir = nodeModules
    ? path.join(nodeModules, "@pulumi", "pulumi")
    : path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  return [engineDir, pulumiDir, process.env.PATH ?? ""].join(path.delimiter);
}

/** The engine's variables for a sandbox, PATH as {@link enginePath} makes it. */
export function engineEnvironment(engineDir: string, dir: string, passphrase: string, nodeModules?: string) {
  return {
    PATH: enginePath(engineDir, nodeModules),
    PULUMI_HOME: path.join(dir, "home"),
    PULUMI_BACKEND_URL: `file://${path.join(dir, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
  };
}

/** A sandbox in `<tmp>/pulumi-blockchain-nodes-<name>-*`, passphrase `<name>-passphrase`; `extraEnv` wins. */
export async function createEngineSandbox(opts: {
  engineDir: string;
  name: string;
  extraEnv?: Record<string, string>;
}): Promise<EngineSandbox> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pulumi-blockchain-nodes-${opts.name}-`));
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const backendDir = path.join(dir, "state");
    const homeDir = path.join(dir, "home");
    fs.mkdirSync(backendDir);
    fs.mkdirSync(homeDir);
    const envVars = {
      ...engineEnvironment(opts.engineDir, dir, `${opts.name}-passphrase`),
      ...opts.extraEnv,
    };
    const command = await PulumiCommand.get({ root: path.dirname(opts.engineDir), skipVersionCheck: true });
    return { dir, backendDir, homeDir, envVars, command, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}
