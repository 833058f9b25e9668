#!/usr/bin/env node
import * as fs from "fs";
import * as path from "path";
import { USAGE, UsageError, parseCliArgs } from "./cli-args";
import type { CliCommand } from "./cli-args";
import { EMULATOR_DEFAULTS } from "./http/options";
import type { EmulatorOptions } from "./http/options";
import type { RunningEmulator } from "./http/running-emulator";
import { startEmulator } from "./http/server";

export { USAGE, UsageError, parseCliArgs, type CliCommand } from "./cli-args";

/**
 * The version of the package this command belongs to, read from its `package.json` (two folders
 * up from this file, in `src/` as in `dist/`).
 */
export function packageVersion(): string {
  const file = path.join(__dirname, "..", "..", "package.json");
  const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
  if (manifest.name !== "pulumi-blockchain-nodes" || typeof manifest.version !== "string") {
    throw new Error(`${file} is not the manifest of pulumi-blockchain-nodes`);
  }
  return manifest.version;
}

/** The well-known ids printed on start, in the order they are printed. */
function wellKnownIds(emulator: RunningEmulator): Array<[string, string]> {
  const f = emulator.fixtures;
  return [
    ["organization", f.organization],
    ["project", f.project],
    ["otherProject", f.otherProject],
    ["networkWithNodes", f.networkWithNodes],
    ["beaconNode", f.beaconNode],
    ["emptyNetwork", f.emptyNetwork],
    ["secondEmptyNetwork", f.secondEmptyNetwork],
    ["consortiumNetwork", f.consortiumNetwork],
    ["otherOrganization", f.otherOrganization],
    ["foreignProject", f.foreignProject],
    ["foreignNetwork", f.foreignNetwork],
    ["faucetAddress", f.faucetAddress],
  ];
}

/** What `--json` prints on start: everything of the text banner, as one object. */
export interface StartInfo {
  /** The emulator's URL, e.g. `http://127.0.0.1:8080`. */
  url: string;
  /** The seed of the data and keys. */
  seed: number;
  /** The API key of the primary organization (`ids.organization`). */
  apiKey: string;
  /** The API key of every organization, by organization id. */
  keys: Record<string, string>;
  /** The key of the `/_emulator/` admin endpoints. */
  adminKey: string;
  /** The well-known ids: organization, projects, networks, a node, a faucet address. */
  ids: Record<string, string>;
  /** The environment variables that point a program at the emulator. */
  env: { BLOCKCHAIN_API_URL: string; BLOCKCHAIN_API_KEY: string };
}

/** The object `--json` prints on start. */
export function startInfo(emulator: RunningEmulator, options: EmulatorOptions): StartInfo {
  return {
    url: emulator.url,
    seed: options.seed ?? EMULATOR_DEFAULTS.seed,
    apiKey: emulator.apiKey,
    keys: { ...emulator.keys },
    adminKey: emulator.adminKey,
    ids: Object.fromEntries(wellKnownIds(emulator)),
    env: { BLOCKCHAIN_API_URL: emulator.url, BLOCKCHAIN_API_KEY: emulator.apiKey },
  };
}

/** The text printed on start: URL, keys, fixtures and an `export` line for the shell. */
export function banner(emulator: RunningEmulator, options: EmulatorOptions): string {
  const f = emulator.fixtures;
  const others = Object.entries(emulator.keys).filter(([org]) => org !== f.organization);
  const rows = wellKnownIds(emulator);
  return [
    `blockchain-nodes-emulator listening on ${emulator.url} (seed ${options.seed ?? EMULATOR_DEFAULTS.seed})`,
    `API key of organization ${f.organization}: ${emulator.apiKey}`,
    ...others.map(([org, key]) => `API key of organization ${org}: ${key}`),
    `Admin key (for the /_emulator/ endpoints): ${emulator.adminKey}`,
    `Fixtures:`,
    ...rows.map(([name, value]) => `  ${name.padEnd(20)}${value}`),
    `Try: curl -H "Authorization: Bearer $BLOCKCHAIN_API_KEY" "$BLOCKCHAIN_API_URL/v1/nodes/"`,
    `export BLOCKCHAIN_API_URL=${emulator.url} BLOCKCHAIN_API_KEY=${emulator.apiKey}`,
    "",
  ].join("\n");
}

/** Runs the command; resolves with the exit status once the emulator has stopped (or failed). */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  let command: CliCommand;
  try {
    command = parseCliArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`blockchain-nodes-emulator: ${error.message}\nRun with --help for usage.\n`);
    return 2;
  }
  if (command.action === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command.action === "version") {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator(command.options);
  } catch (error) {
    process.stderr.write(`blockchain-nodes-emulator: cannot start: ${(error as Error).message}\n`);
    return error instanceof RangeError || error instanceof TypeError ? 2 : 1;
  }
  process.stdout.write(
    command.output === "json"
      ? `${JSON.stringify(startInfo(emulator, command.options))}\n`
      : banner(emulator, command.options),
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await emulator.close();
  return 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`blockchain-nodes-emulator: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
