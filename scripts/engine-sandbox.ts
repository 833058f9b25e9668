/**
 * The isolated environment in which the Pulumi engine runs for the demo (`scripts/demo.ts`) and
 * for the end-to-end tests (`test/helpers/engine.ts`): a temp folder holding a `file://` backend
 * and `PULUMI_HOME`, a passphrase secrets provider, no update check, no automatic plugin download,
 * no Automation API version check, and a `PATH` that finds the engine and the nodejs dynamic
 * provider. Nothing leaves the machine or touches the user's own Pulumi setup.
 *
 * Neither `src/` nor the package imports this file.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { PulumiCommand } from "@pulumi/pulumi/automation";

/** An engine environment in a temp folder, with the command that runs the engine in it. */
export interface EngineSandbox {
  /** The temp folder holding everything below; a workspace may use it as its work dir. */
  dir: string;
  /** The `file://` backend's folder (stacks, history, backups). */
  backendDir: string;
  /** `PULUMI_HOME` (plugins, credentials, workspace settings). */
  homeDir: string;
  /** The variables to give the engine (the Automation API's `envVars`). */
  envVars: Record<string, string>;
  /** The engine's `pulumi`, for the Automation API's `pulumiCommand`. */
  command: PulumiCommand;
  /** Removes the temp folder. */
  cleanup(): void;
}

/** Options of {@link createEngineSandbox}. */
export interface EngineSandboxOptions {
  /** The folder holding `pulumi` and `pulumi-language-nodejs`. */
  engineDir: string;
  /** Who the sandbox is for (`demo`, `e2e`): names the temp folder and the passphrase. */
  name: string;
  /** More variables for the engine, set after (and so over) the sandbox's own. */
  extraEnv?: Record<string, string>;
}

/** The folder of `@pulumi/pulumi`, which holds `pulumi-resource-pulumi-nodejs` (dynamic providers). */
function pulumiPackageDir(): string {
  return path.dirname(require.resolve("@pulumi/pulumi/package.json"));
}

/**
 * The engine's environment variables for a sandbox: the engine and the nodejs provider first on
 * `PATH`, `PULUMI_HOME` and the `file://` backend in the sandbox, the passphrase, and no update
 * check, automatic plugin download or Automation API version check.
 */
export function engineEnvironment(opts: {
  engineDir: string;
  homeDir: string;
  backendDir: string;
  passphrase: string;
}): Record<string, string> {
  return {
    PATH: [opts.engineDir, pulumiPackageDir(), process.env.PATH ?? ""].join(path.delimiter),
    PULUMI_HOME: opts.homeDir,
    PULUMI_BACKEND_URL: `file://${opts.backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: opts.passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
  };
}

/**
 * Creates a sandbox under the system temp folder (`pulumi-blockchain-nodes-<name>-*`), with the
 * passphrase `<name>-passphrase`. The engine also inherits this process's environment: the
 * variables set here override it.
 */
export async function createEngineSandbox(opts: EngineSandboxOptions): Promise<EngineSandbox> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pulumi-blockchain-nodes-${opts.name}-`));
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const backendDir = path.join(dir, "state");
    const homeDir = path.join(dir, "home");
    fs.mkdirSync(backendDir);
    fs.mkdirSync(homeDir);
    const envVars = {
      ...engineEnvironment({
        engineDir: opts.engineDir,
        homeDir,
        backendDir,
        passphrase: `${opts.name}-passphrase`,
      }),
      ...opts.extraEnv,
    };
    const command = await PulumiCommand.get({ root: path.dirname(opts.engineDir), skipVersionCheck: true });
    return { dir, backendDir, homeDir, envVars, command, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}
