/**
 * Records a release's upgrade baseline for test/e2e/upgrade.test.ts, once per release:
 * `npx tsc -p tsconfig.upgrade-baseline.json && node build/upgrade-baseline/scripts/record-upgrade-baseline.js
 * <commit>`. With the release's own build (a temporary worktree of the commit, `npm ci`, built), `pulumi up`
 * of a TypeScript stack (dynamic providers) and a YAML stack (plugin) against its emulator (fixed seed), a
 * preview with no changes, then each stack's state and project files written to
 * `test/fixtures/upgrade/<version>/` with `baseline.json`, machine paths and URLs as `__NAME__` placeholders;
 * nothing is written if a file still holds a machine path or a secret.
 */
import { execFileSync } from "child_process";
import * as crypto from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as prettier from "prettier";
import { parseArgs } from "util";
import type { EmulatorFixtures, RunningEmulator } from "../src/emulator";
import { secretForms } from "../src/model";
import { ROOT, enginePath, engineVersion, EngineRun, provisionEngine } from "./engine-sandbox";
import type { StateResource } from "./engine-sandbox";

const FIXTURES_DIR = path.join(ROOT, "test", "fixtures", "upgrade");
/** The seed of the recording emulator (and the test's); the secrets provider's passphrase (a test value). */
const [SEED, PASSPHRASE] = [1, "upgrade-baseline-passphrase"];
const NETWORK_TYPES = ["pulumi-nodejs:dynamic/blockchain:Network", "blockchain:index:Network"];
const FIXTURES = ["organization", "networkWithNodes", "emptyNetwork", "beaconNode", "faucetAddress"] as const;

/** What `baseline.json` holds. */
export interface Baseline {
  version: string;
  commit: string;
  engine: string;
  seed: number;
  passphrase: string;
  /** The recording emulator's fixture ids; a fresh emulator of the same seed must have the same. */
  fixtures: Pick<EmulatorFixtures, (typeof FIXTURES)[number]>;
  /** SHA-256 (hex) of the emulator's primary API key: the encrypted config holds that key. */
  apiKeySha256: string;
  stacks: BaselineStack[];
}

export interface BaselineStack {
  stack: string;
  project: string;
  runtime: "nodejs" | "yaml";
  /** Executables the engine folder must hold to run it. */
  needs: string[];
  /** The exported state, relative to the baseline's folder. */
  state: string;
  /** The project's folder (Pulumi.yaml, program, Pulumi.<stack>.yaml), relative to the baseline's folder. */
  projectDir: string;
  /** The project's files, relative to {@link projectDir}. */
  files: string[];
  /** Network id → the name the stack gave it (the emulator's state the recording left). */
  networkNames: Record<string, string>;
  urns: string[];
}

interface Program extends Pick<BaselineStack, "stack" | "project" | "runtime" | "needs"> {
  /** The project's files, as 0.1.0 recorded them (`__PLUGIN_DIR__` is filled in before the run). */
  files: string[];
  /** Plain stack config (project namespace), from the emulator's fixture ids. */
  config: (f: Baseline["fixtures"]) => Record<string, string>;
  /** Checks of its own stack outputs after `up` (secret ones read as "[secret]"), beyond those every program has. */
  outputs: (outputs: Record<string, unknown>, f: Baseline["fixtures"]) => void;
}

/** Every baseline records the first one's programs: TypeScript on the dynamic providers, YAML on the plugin. */
const PROGRAMS_DIR = path.join(FIXTURES_DIR, "0.1.0");

const PROGRAMS: Program[] = [
  {
    stack: "ts",
    project: "upgrade-ts",
    runtime: "nodejs",
    needs: [],
    files: ["Pulumi.yaml", "index.ts", "tsconfig.json"],
    config: (f) => ({
      networkId: f.networkWithNodes,
      networkName: "upgrade-ts-main",
      spareNetworkId: f.emptyNetwork,
      spareNetworkName: "upgrade-ts-spare",
      faucetAddress: f.faucetAddress,
    }),
    outputs: (out) => {
      expect(out.spareNetworkName === "upgrade-ts-spare", `spareNetworkName ${String(out.spareNetworkName)}`);
      expect(Array.isArray(out.nodeIds) && out.nodeIds.length > 1, "nodeIds lists the nodes");
    },
  },
  {
    stack: "yaml",
    project: "upgrade-yaml",
    runtime: "yaml",
    needs: ["pulumi-language-yaml"],
    files: ["Pulumi.yaml"],
    config: (f) => ({
      networkId: f.networkWithNodes,
      networkName: "upgrade-yaml-main",
      faucetAddress: f.faucetAddress,
    }),
    outputs: (out, f) => expect(out.firstNodeId === f.beaconNode, `firstNodeId ${String(out.firstNodeId)}`),
  },
];

function expect(ok: boolean, what: string): void {
  if (!ok) throw new Error(`recording check failed: ${what}`);
}

const log = (text: string): void => console.log(`record-upgrade-baseline: ${text}`);

const run = (command: string, args: string[], cwd: string): string =>
  execFileSync(command, args, { cwd, stdio: ["ignore", "pipe", "inherit"] }).toString();

/** A temporary worktree of the release's commit, built. */
function checkoutOf(target: string): { dir: string; cleanup: () => void } {
  const commit = run("git", ["rev-parse", "--verify", `${target}^{commit}`], ROOT).trim();
  const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-blockchain-nodes-release-")));
  const dir = path.join(parent, "checkout");
  log(`checking out ${commit} in ${dir}`);
  run("git", ["worktree", "add", "--detach", dir, commit], ROOT);
  const cleanup = () => {
    try {
      run("git", ["worktree", "remove", "--force", dir], ROOT);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  };
  try {
    log("npm ci && npm run build");
    run("npm", ["ci", "--no-audit", "--no-fund"], dir);
    run("npm", ["run", "build"], dir);
  } catch (error) {
    cleanup();
    throw error;
  }
  return { dir, cleanup };
}

/** Replaces every value by its placeholder, longest value first. */
function placeholders(text: string, values: Record<string, string>): string {
  const pairs = Object.entries(values).sort((a, b) => b[1].length - a[1].length);
  for (const [name, value] of pairs) text = text.split(value).join(`__${name}__`);
  return text;
}

/** What the emulator of a release offers (`RunningEmulator`, as far as the recording uses it). */
type ReleaseEmulator = Pick<RunningEmulator, "url" | "apiKey" | "fixtures" | "secrets" | "close"> & {
  admin: { getNetwork(id: string): { name: string } | undefined };
};

async function main(): Promise<void> {
  const { positionals } = parseArgs({ allowPositionals: true });
  if (positionals.length !== 1) throw new Error("usage: record-upgrade-baseline.js <commit>");
  const release = checkoutOf(positionals[0]);
  let started: EngineRun | undefined;
  const projectsDir = path.join(release.dir, "build", "upgrade-baseline-projects");
  try {
    const { version } = JSON.parse(fs.readFileSync(path.join(release.dir, "package.json"), "utf8"));
    const commit = run("git", ["rev-parse", "HEAD"], release.dir).trim();
    const engine = provisionEngine();
    const outDir = path.join(FIXTURES_DIR, version);
    log(`release ${version} (${commit}) from ${release.dir}; engine ${engine}`);

    // The dynamic providers' plugin of the release's own @pulumi/pulumi.
    const env = {
      PATH: enginePath(engine, path.join(release.dir, "node_modules")),
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    };
    const engineRun = (started = await EngineRun.start(() => env, "upgrade-baseline", engine));
    // The release's own emulator, in this process; a fresh one (same seed) for each stack.
    const emulatorModule = require(path.join(release.dir, "dist", "emulator", "index.js"));

    /** Runs `up` of one program against a fresh emulator of the release and exports its state. */
    const recordStack = async ({ files: projectFiles, config: configOf, outputs, ...entry }: Program) => {
      const { stack, project } = entry;
      const emulator: ReleaseEmulator = await emulatorModule.startEmulator({ seed: SEED, quiet: true });
      try {
        const fixtures = Object.fromEntries(
          FIXTURES.map((n) => [n, emulator.fixtures[n]]),
        ) as Baseline["fixtures"];
        // Inside the release's checkout: the program and the provider process find its build there.
        const projectDir = path.join(projectsDir, stack);
        fs.rmSync(projectDir, { recursive: true, force: true });
        fs.mkdirSync(projectDir, { recursive: true });
        const pluginDir = path.join(release.dir, "bin");
        for (const name of projectFiles) {
          const content = fs.readFileSync(path.join(PROGRAMS_DIR, stack, name), "utf8");
          fs.writeFileSync(path.join(projectDir, name), content.split("__PLUGIN_DIR__").join(pluginDir));
        }

        log(`stack ${stack}: up`);
        /** Runs `pulumi` (not blocking: the emulator answers from this process); its stdout, or fails with what it printed. */
        const cli = async (args: string[]) => {
          const r = await engineRun.run(projectDir, args);
          if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (exit ${r.code}):\n${r.output}`);
          return r.stdout;
        };
        await engineRun.initStack(projectDir, stack, emulator);
        const config = configOf(fixtures);
        for (const [key, value] of Object.entries(config))
          await cli(["config", "set", `${project}:${key}`, value]);
        await cli(["up", "--yes", "--skip-preview"]);
        const out = JSON.parse(await cli(["stack", "output", "--json"]));
        expect(out.networkName === config.networkName, `networkName ${String(out.networkName)}`);
        expect(out.firstNodeHttpsEndpoint === "[secret]", "firstNodeHttpsEndpoint is secret");
        expect(/^[1-9][0-9]*$/.test(String(out.faucetAmountSent)), "faucetAmountSent is an amount");
        outputs(out, fixtures);
        // The release agrees with its own state.
        await cli(["preview", "--expect-no-changes"]);

        const exported = await cli(["stack", "export"]);
        const resources: StateResource[] = JSON.parse(exported).deployment.resources ?? [];
        const networkNames: Record<string, string> = {};
        for (const res of resources.filter((res) => NETWORK_TYPES.includes(res.type))) {
          const name = String(res.outputs?.name ?? "");
          expect(emulator.admin.getNetwork(res.id!)?.name === name, `network ${res.id} is named ${name}`);
          networkNames[res.id!] = name;
        }

        const machine: Record<string, string> = {
          EMULATOR_URL: emulator.url,
          // The node endpoints' other schemes (wss://) carry the emulator's host and port too.
          EMULATOR_HOST: new URL(emulator.url).host,
          PLUGIN_DIR: pluginDir,
          PROJECT_DIR: projectDir,
          CHECKOUT: release.dir,
          SANDBOX: engineRun.sandbox.dir,
          ENGINE_DIR: engine,
        };
        const [names, state] = [[...projectFiles, `Pulumi.${stack}.yaml`], `${stack}.json`];
        /** Fixture file name (relative to the baseline's folder) → content, with placeholders. */
        const files: Record<string, string> = { [state]: placeholders(exported, machine) };
        for (const name of names) {
          const text = fs.readFileSync(path.join(projectDir, name), "utf8");
          files[path.join(stack, name)] = placeholders(text, machine);
        }
        const urns = resources.map((res) => res.urn);
        return {
          stack: { ...entry, state, projectDir: stack, files: names, networkNames, urns },
          files,
          fixtures,
          apiKey: emulator.apiKey,
          /** The machine's values that must not be left in any file: the emulator's URL and port. */
          leftovers: [emulator.url, `:${new URL(emulator.url).port}`],
          secrets: [emulator.apiKey, ...emulator.secrets()],
        };
      } finally {
        await emulator.close();
      }
    };

    const recorded = [];
    for (const program of PROGRAMS) recorded.push(await recordStack(program));
    const [first] = recorded;
    const same = new Set(recorded.map((r) => JSON.stringify([r.fixtures, r.apiKey]))).size === 1;
    expect(same, "every emulator has the same fixtures and API key");

    const baseline: Baseline = {
      version,
      commit,
      engine: engineVersion(engine),
      seed: SEED,
      passphrase: PASSPHRASE,
      fixtures: first.fixtures,
      apiKeySha256: crypto.createHash("sha256").update(first.apiKey).digest("hex"),
      stacks: recorded.map((r) => r.stack),
    };
    const written: Record<string, string> = Object.assign({}, ...recorded.map((r) => r.files));
    written["baseline.json"] = JSON.stringify(baseline, null, 2) + "\n";

    // Nothing of this machine, no secret.
    const machine = [os.tmpdir() + path.sep, os.homedir() + path.sep, release.dir, ROOT];
    const leftovers = [...machine, "127.0.0.1:", "localhost:", ...recorded.flatMap((r) => r.leftovers)];
    const secrets = recorded.flatMap((r) => r.secrets);
    for (const [name, text] of Object.entries(written)) {
      for (const left of leftovers) expect(!text.includes(left), `${name} holds no ${left}`);
      for (const secret of secrets) {
        const found = secretForms(secret).some((form) => text.includes(form));
        expect(!found, `${name} holds no secret of the emulator (${secret.slice(0, 4)}…)`);
      }
    }

    fs.rmSync(outDir, { recursive: true, force: true });
    const options = (await prettier.resolveConfig(path.join(ROOT, "package.json"))) ?? {};
    for (const [name, text] of Object.entries(written)) {
      const file = path.join(outDir, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, await prettier.format(text, { ...options, filepath: file }));
    }
    log(`wrote ${Object.keys(written).length} files to ${path.relative(ROOT, outDir)}/`);
  } finally {
    await started?.close();
    fs.rmSync(projectsDir, { recursive: true, force: true });
    release.cleanup();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
