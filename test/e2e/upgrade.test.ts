/**
 * This version on stacks a released one wrote (test/fixtures/upgrade/<version>/, recorded by
 * scripts/record-upgrade-baseline.ts, seed and keys included): no changes to preview or up,
 * refresh keeps every resource, destroy succeeds. A project file a release recorded byte for byte as
 * the release before it did is kept once, in the older folder (the TypeScript program of 0.2.0 and
 * 0.3.0 is 0.1.0's): each release's program still runs as that release wrote it.
 */
import * as crypto from "crypto";
import * as fs from "fs";
import * as path from "path";
import type { Baseline, BaselineStack } from "../../scripts/record-upgrade-baseline";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine, EngineRun, StateResource } from "../helpers/engine";

const ROOT = path.resolve(__dirname, "..", "..");
const BASELINES = path.join(ROOT, "test", "fixtures", "upgrade");
/** Where the projects run: inside this checkout (see README, "State that travels"). */
const PROJECTS = path.join(ROOT, "build", "e2e-upgrade");
// Import, preview, up, refresh and destroy of a stack: minutes.
jest.setTimeout(960_000);
const NETWORK_TYPES = ["pulumi-nodejs:dynamic/blockchain:Network", "blockchain:index:Network"];

/** Every recorded baseline, oldest release first. */
function baselines(): Baseline[] {
  if (!fs.existsSync(BASELINES)) return [];
  return fs
    .readdirSync(BASELINES)
    .filter((d) => fs.existsSync(path.join(BASELINES, d, "baseline.json")))
    .map((d) => JSON.parse(fs.readFileSync(path.join(BASELINES, d, "baseline.json"), "utf8")) as Baseline)
    .sort((a, b) => a.version.localeCompare(b.version, undefined, { numeric: true }));
}

/** A recorded file's text with its placeholders (`__NAME__`) filled in; `json`: values escaped for JSON. */
function fill(file: string, values: Record<string, string>, json: boolean): string {
  return fs.readFileSync(file, "utf8").replace(/__([A-Z][A-Z_]*[A-Z])__/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for the placeholder ${whole}`);
    return json ? JSON.stringify(value).slice(1, -1) : value;
  });
}

/** A project file `name` of `projectDir` as `version` recorded it: its own copy, else the latest older release's. */
function recordedFile(version: string, projectDir: string, name: string): string {
  const releases = baselines().map((b) => b.version);
  const file = releases
    .slice(0, releases.indexOf(version) + 1)
    .reverse()
    .map((v) => path.join(BASELINES, v, projectDir, name))
    .find((f) => fs.existsSync(f));
  if (!file) throw new Error(`no ${projectDir}/${name} recorded by ${version} or before`);
  return file;
}

const byUrn = (state: StateResource[]) =>
  Object.fromEntries(state.map((r) => [r.urn, r.id ?? ""])) as Record<string, string>;

test("at least one release's baseline is recorded", () => {
  expect(baselines().map((b) => b.version)).toContain("0.1.0");
});

for (const baseline of baselines()) {
  for (const recorded of baseline.stacks) {
    describeUpgrade(baseline, recorded);
  }
}

function describeUpgrade(baseline: Baseline, recorded: BaselineStack): void {
  describeWithEngine(recorded.needs)(
    `state written by ${baseline.version}: stack ${recorded.stack} (${recorded.runtime})`,
    () => {
      const baselineDir = path.join(BASELINES, baseline.version);
      const projectFiles = recorded.files.map((f) => recordedFile(baseline.version, recorded.projectDir, f));
      const recordedFiles = [
        path.join(baselineDir, "baseline.json"),
        path.join(baselineDir, recorded.state),
        ...projectFiles,
      ];
      const projectDir = path.join(PROJECTS, `${baseline.version}-${recorded.stack}-${process.pid}`);
      const configFile = path.join(projectDir, `Pulumi.${recorded.stack}.yaml`);
      let run: EngineRun;

      const audit = () => run.audit(emulator().secrets(), [configFile, ...recordedFiles]);
      const pulumi = (args: string[], label?: string) => run.ok(projectDir, args, label);

      afterAll(() => {
        run?.sandbox.cleanup();
        fs.rmSync(projectDir, { recursive: true, force: true });
      });
      const emulator = withEmulator({ seed: baseline.seed });

      beforeAll(async () => {
        // The same seed gives this emulator the recording's ids and key.
        const f: Record<string, string> = { ...emulator().fixtures };
        const ids = ["organization", "networkWithNodes", "emptyNetwork", "beaconNode", "faucetAddress"];
        expect(Object.fromEntries(ids.map((id) => [id, f[id]]))).toEqual(baseline.fixtures);
        expect(crypto.createHash("sha256").update(emulator().apiKey).digest("hex")).toBe(
          baseline.apiKeySha256,
        );
        // The state the recording left: the networks as the stack named them.
        for (const [id, name] of Object.entries(recorded.networkNames)) {
          expect(emulator().admin.renameNetwork(id, name)).toBe(true);
        }

        run = await EngineRun.start(() => ({ PULUMI_CONFIG_PASSPHRASE: baseline.passphrase }));
        const values: Record<string, string> = {
          EMULATOR_URL: emulator().url,
          EMULATOR_HOST: new URL(emulator().url).host,
          PLUGIN_DIR: path.join(ROOT, "bin"),
          PROJECT_DIR: projectDir,
          CHECKOUT: ROOT,
          SANDBOX: run.sandbox.dir,
          ENGINE_DIR: run.engineDir,
        };
        fs.rmSync(projectDir, { recursive: true, force: true });
        fs.mkdirSync(projectDir, { recursive: true });
        for (const [i, name] of recorded.files.entries())
          fs.writeFileSync(path.join(projectDir, name), fill(projectFiles[i], values, false));
        const stateFile = path.join(run.sandbox.dir, `${recorded.stack}.json`);
        fs.writeFileSync(stateFile, fill(path.join(baselineDir, recorded.state), values, true));

        // The recorded Pulumi.<stack>.yaml is in place: init keeps its salt, so its key decrypts.
        const salt = /^encryptionsalt: (.+)$/m.exec(fs.readFileSync(configFile, "utf8"))?.[1];
        await pulumi(["stack", "init", recorded.stack]);
        expect(/^encryptionsalt: (.+)$/m.exec(fs.readFileSync(configFile, "utf8"))?.[1]).toBe(salt);
        await pulumi(["stack", "import", "--file", stateFile]);
        expect((await run.state(projectDir)).map((r) => r.urn)).toEqual(recorded.urns);
      });

      test("preview and up show no changes, refresh keeps every resource, destroy succeeds and leaves every network in the service (no state before 0.3.0 has forceDestroy)", async () => {
        const resources = recorded.urns.filter((urn) => !urn.includes("::pulumi:providers:"));
        const preview = await pulumi(["preview", "--expect-no-changes", "--diff"], "preview");
        expect(preview).toMatch(new RegExp(`\\b${resources.length} unchanged`));

        const before = byUrn(await run.state(projectDir));
        await pulumi(["up", "--expect-no-changes", "--yes", "--diff"], "up");
        expect(byUrn(await run.state(projectDir))).toEqual(before);
        await pulumi(["refresh", "--yes"], "refresh");
        expect(byUrn(await run.state(projectDir))).toEqual(before);
        // The networks are still the recorded ones, named as the stack named them.
        for (const [id, name] of Object.entries(recorded.networkNames))
          expect(emulator().admin.getNetwork(id)?.name).toBe(name);

        const networks = (await run.state(projectDir)).filter((r) => NETWORK_TYPES.includes(r.type));
        expect(networks.map((r) => r.id).sort()).toEqual(Object.keys(recorded.networkNames).sort());
        expect(networks.filter((r) => r.outputs?.forceDestroy !== undefined)).toEqual([]);
        await pulumi(["destroy", "--yes"], "destroy");
        expect(await run.state(projectDir)).toEqual([]);
        expect(networks.filter((r) => !emulator().admin.getNetwork(r.id!))).toEqual([]);
        audit();
      });
    },
  );
}
