/**
 * Runs killed (the engine's whole tree SIGKILLed) while the emulator holds the faucet send or the
 * network PATCH: the next `up`, after `pulumi cancel` and `refresh --clear-pending-creates` as the
 * pinned engine asks, converges without asking the faucet twice or leaking a secret. A run stopped
 * by Ctrl-C leaves no lock or pending operation: the next `up` succeeds as it is. (The bad-day
 * matrix's stops, test/e2e/bad-days.test.ts, time them and check what they print.)
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { CommandError, type Stack, type UpResult } from "@pulumi/pulumi/automation";
import { FAUCET_AMOUNT_WEI, RunningEmulator, startEmulator } from "../../src/emulator";
import { FaucetDrip, Network } from "../../src";
import {
  arrivals,
  describeWithEngine,
  engineVersion,
  ENGINE_VERSION,
  filesUnder,
  killProcessTree,
  listProcesses,
  ProcessInfo,
  changes,
  emulatorConfig,
  EngineRun,
  type StateResource,
} from "../helpers/engine";
import { until } from "../helpers/plugin-client";

const STEP_TIMEOUT = 240_000;
jest.setTimeout(STEP_TIMEOUT);
/** How long the emulator holds the faucet send and each network PATCH during the killed run. */
const HOLD_MS = 4000;
const FAUCET_ROUTE = "/v1/faucet/goerli";
const NETWORKS_PATH = "/v1/networks/";
const DESIRED_NAME = "renamed-after-interrupt";

type Arrival = ReturnType<typeof arrivals>["seen"][number];

/** The `pulumi up` process this test process started (the Automation API spawns it). */
function engineProcess(): ProcessInfo | undefined {
  return listProcesses().find(
    (p) => p.ppid === process.pid && path.basename(p.argv[0] ?? "") === "pulumi" && p.argv.includes("up"),
  );
}

const NETWORK_TYPE = "pulumi-nodejs:dynamic/blockchain:Network";
const FAUCET_TYPE = "pulumi-nodejs:dynamic/blockchain:FaucetDrip";

interface PendingOperation {
  resource: { urn: string; type: string };
  type: string;
}

/** The resource types of the pending operations of a state, sorted. */
function pendingTypes(state: { pending: PendingOperation[] }): string[] {
  expect(state.pending.every((op) => op.type === "creating")).toBe(true);
  return state.pending.map((op) => op.resource.type).sort();
}

/** One interrupted-run scenario: its own emulator, engine sandbox, journal and stack. */
class Run {
  emulator!: RunningEmulator;
  engine!: EngineRun;
  stack!: Stack;
  journalDir = "";
  /** The requests as they arrive: the emulator's own record holds one once answered, after the hold, too late. */
  watcher!: ReturnType<typeof arrivals>;
  /** The engine is the pinned version, whose behaviour after a kill is asserted. */
  pinned = false;

  constructor(
    readonly stackName: string,
    /** The FaucetDrip waits for the Network (dependsOn), so a kill during the PATCH precedes any send. */
    readonly faucetAfterNetwork: boolean,
  ) {}

  get networkId(): string {
    return this.emulator.fixtures.emptyNetwork;
  }

  get address(): string {
    return this.emulator.fixtures.faucetAddress;
  }

  async start(): Promise<this> {
    this.emulator = await startEmulator({ port: 0 });
    this.watcher = arrivals(this.emulator.url);
    this.journalDir = fs.mkdtempSync(path.join(os.tmpdir(), "pbn-journal-"));
    // The dynamic provider inherits the engine's environment, the journal directory with it.
    this.engine = await EngineRun.start(() => ({ BLOCKCHAIN_FAUCET_JOURNAL_DIR: this.journalDir }));
    this.pinned = engineVersion(this.engine.engineDir) === ENGINE_VERSION;
    const { networkId, address, faucetAfterNetwork } = this;
    const workDir = path.join(this.engine.sandbox.dir, "project");
    fs.mkdirSync(workDir);
    const program = async () => {
      const network = new Network("net", { networkId, name: DESIRED_NAME }, { retainOnDelete: true });
      const drip = new FaucetDrip("tokens", { address }, faucetAfterNetwork ? { dependsOn: [network] } : {});
      return {
        networkName: network.name,
        outcome: drip.outcome,
        amountSent: drip.amountSent,
        note: drip.note,
      };
    };
    this.stack = await this.engine.stack(
      { stackName: this.stackName, projectName: "interrupted", program, workDir },
      emulatorConfig(this.emulator),
    );
    return this;
  }

  /** Ends it all; should a test fail before its kill, the engine's close stops what its `up` left running. */
  async close(): Promise<void> {
    this.watcher?.end();
    await this.engine?.close();
    if (this.journalDir) fs.rmSync(this.journalDir, { recursive: true, force: true });
    await this.emulator?.close();
  }

  /** The requests that arrived at the emulator with this method, on paths starting with `prefix`. */
  arrived(method: string, prefix: string): Arrival[] {
    return this.watcher.seen.filter((a) => a.request.method === method && a.request.url?.startsWith(prefix));
  }

  /**
   * Starts `up` with the faucet and the network PATCH held, waits until `ready` names the held
   * requests that must have fully arrived (headers and body), then SIGKILLs the engine's tree.
   * Returns once the `up` has failed and the emulator has finished the held requests.
   */
  async killedUp(
    ready: () => Arrival[] | undefined,
    delays: { faucetMs: number; networkUpdateMs: number } = { faucetMs: HOLD_MS, networkUpdateMs: HOLD_MS },
  ): Promise<void> {
    this.emulator.setRouteDelays(delays);
    const failed = expect(this.stack.up(this.engine.recorded("killed up"))).rejects.toBeDefined();
    await until(
      "the requests to hold",
      () => {
        const r = ready();
        return r && r.every((a) => a.request.complete) ? r : undefined;
      },
      120_000,
    );
    const engine = await until("the engine process", engineProcess, 10_000);
    const killed = killProcessTree(engine.pid);
    await failed;
    // The whole tree is gone, the dynamic provider (which held the connection) included.
    expect(killed.some((p) => p.argv.join(" ").includes("dynamic-provider"))).toBe(true);
    await until(
      "the killed processes to be gone",
      () => {
        const alive = new Set(listProcesses().map((p) => p.pid));
        return killed.every((p) => !alive.has(p.pid)) ? true : undefined;
      },
      10_000,
    );
    // Every request that had arrived is answered (to nobody) once its hold is over.
    const arrivedCount = this.watcher.seen.length;
    await until(
      "the held requests to be finished by the emulator",
      () => (this.emulator.requestStats().total >= arrivedCount ? true : undefined),
      HOLD_MS * 4,
    );
    this.emulator.setRouteDelays({});
  }

  /** The state as the engine exported it (secrets decrypted by the Automation API). */
  async state(): Promise<{ resources: StateResource[]; pending: PendingOperation[] }> {
    const exported = await this.stack.exportStack();
    return {
      resources: (exported.deployment.resources ?? []) as StateResource[],
      pending: (exported.deployment.pending_operations ?? []) as PendingOperation[],
    };
  }

  /**
   * `up` after the kill, doing what Pulumi's messages ask a non-interactive user to do: it creates both
   * resources, the network named, past the pending operations.
   */
  async upAgain(): Promise<UpResult> {
    let up = await this.stack.up(this.engine.recorded("up after kill")).catch((e: Error) => e);
    if (up instanceof Error) {
      expect(String(up)).toMatch(/currently locked by 1 lock/);
      expect(String(up)).toContain("pulumi cancel");
      await this.stack.cancel();
      up = await this.stack.up(this.engine.recorded("up after cancel"));
    } else expect(this.pinned).toBe(false);
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
    expect(Object.values(this.engine.transcript).join("")).toContain("pending operations");
    expect(up.outputs.networkName.value).toBe(DESIRED_NAME);
    return up;
  }

  faucetPosts() {
    return this.emulator.requests().filter((r) => r.method === "POST" && r.route === FAUCET_ROUTE);
  }
}

/**
 * Checks shared by both timings once the second `up` is done: converged, name applied, one faucet POST
 * and send in all, the drip's outcome the `up`'s, no secret leaked. Returns the drip's outputs.
 */
async function expectConverged(run: Run, up: UpResult): Promise<Record<string, unknown>> {
  // The `up` after the kill carried the pending CREATE operations over (they need a person's decision).
  if (run.pinned) expect((await run.state()).pending.length).toBeGreaterThan(0);
  // What Pulumi documents for clearing pending CREATE operations without a prompt.
  const refresh = await run.stack.refresh({
    clearPendingCreates: true,
    ...run.engine.recorded("refresh clear pending"),
  });
  expect(refresh.summary.result).toBe("succeeded");
  const state = await run.state();
  expect(state.pending).toEqual([]);
  // The read of refresh shows the desired name, and so does the service.
  const network = state.resources.find((r) => r.type === NETWORK_TYPE);
  expect(network?.outputs?.name).toBe(DESIRED_NAME);
  expect(run.emulator.admin.getNetwork(run.networkId)!.name).toBe(DESIRED_NAME);

  const preview = await run.stack.preview({ expectNoChanges: true, ...run.engine.recorded("preview") });
  expect(changes(preview.changeSummary)).toEqual([]);

  // The journal entry is gone: an explicit `up --replace` would send again.
  expect(fs.readdirSync(run.journalDir)).toEqual([]);
  // Audit: backend and journal files, `pulumi stack export` as a user runs it, all engine output.
  const args = ["stack", "export", "--stack", run.stackName];
  expect(await run.engine.ok(run.stack.workspace.workDir, args)).toContain("ciphertext");
  run.engine.audit(run.emulator.secrets(), filesUnder(run.journalDir));
  expect(run.arrived("POST", FAUCET_ROUTE)).toHaveLength(1);
  expect(run.emulator.faucetSendCount(run.address)).toBe(1);
  const drip = state.resources.find((r) => r.type === FAUCET_TYPE)?.outputs;
  expect(drip).toMatchObject({ address: run.address, outcome: up.outputs.outcome.value });
  return drip!;
}

describeWithEngine(["/proc/self/stat"])("interrupted runs under the real engine", () => {
  const runs: Run[] = [];
  /** A run, started; closed after the tests. */
  const started = (...args: ConstructorParameters<typeof Run>) =>
    runs[runs.push(new Run(...args)) - 1].start();

  afterAll(async () => {
    for (const run of runs) await run.close();
  }, STEP_TIMEOUT);

  test("killed while the faucet send is held: the send is processed, the next up does not send again and records the outcome as unknown", async () => {
    const run = await started("faucet-held", false);
    const fixtureName = run.emulator.admin.getNetwork(run.networkId)!.name;
    expect(fixtureName).not.toBe(DESIRED_NAME);

    // Network and FaucetDrip are created in parallel. The Network's check only reads (GET);
    // its create reads the network (a held PATCH with an empty body). Kill once the faucet POST
    // (held three times as long) and the create's read have fully arrived.
    await run.killedUp(
      () => {
        const posts = run.arrived("POST", FAUCET_ROUTE);
        const patches = run.arrived("PATCH", NETWORKS_PATH);
        return posts.length > 0 && patches.length >= 1 ? [posts[0], patches[0]] : undefined;
      },
      { faucetMs: HOLD_MS * 3, networkUpdateMs: HOLD_MS },
    );
    // The emulator does not watch the client while it holds a request: the send was processed
    // after the hold, and its answer went to a closed connection.
    expect(run.faucetPosts()).toEqual([expect.objectContaining({ status: 200, fault: "route-delay" })]);
    expect(run.emulator.faucetSendCount(run.address)).toBe(1);
    // The rename was never sent: the kill came during the create's read.
    expect(run.arrived("PATCH", NETWORKS_PATH)).toHaveLength(1);
    expect(run.emulator.admin.getNetwork(run.networkId)!.name).toBe(fixtureName);
    // The engine never heard back: both creates are pending; the journal remembers the send.
    expect(pendingTypes(await run.state())).toEqual([FAUCET_TYPE, NETWORK_TYPE]);
    expect(fs.readdirSync(run.journalDir)).toHaveLength(1);

    const up = await run.upAgain();
    // The killed run's POST was processed, so the second run sent none: one POST in all.
    const drip = await expectConverged(run, up);
    expect(run.faucetPosts()).toHaveLength(1);
    expect(drip).toMatchObject({ outcome: "unknown", amountSent: "", transaction: "" });
    expect(drip.note).toContain("interrupted");
    expect(drip.note).toContain("pulumi up --replace");
  });

  test("killed while the network rename is held, before any faucet request: the rename lands, the next up sends once", async () => {
    const run = await started("network-held", true);

    // The FaucetDrip waits for the Network: its check only reads (GET), create reads the
    // network (a held PATCH with an empty body), then renames it (a second). Kill once the
    // rename has arrived.
    await run.killedUp(() => {
      const patches = run.arrived("PATCH", NETWORKS_PATH);
      return patches.length >= 2 ? [patches[1]] : undefined;
    });
    // Processed after the hold, unseen by the engine.
    expect(run.emulator.admin.getNetwork(run.networkId)!.name).toBe(DESIRED_NAME);
    expect(run.arrived("POST", FAUCET_ROUTE)).toEqual([]);
    expect(pendingTypes(await run.state())).toEqual([NETWORK_TYPE]);
    expect(fs.readdirSync(run.journalDir)).toEqual([]);

    const up = await run.upAgain();
    // The network already had the name: the new create read it and sent no rename.
    expect(run.arrived("PATCH", NETWORKS_PATH)).toHaveLength(3);
    // Nothing was sent by the killed run, so the second run sent: one POST in all.
    const drip = await expectConverged(run, up);
    expect(run.faucetPosts()).toEqual([expect.objectContaining({ status: 200 })]);
    expect(drip).toMatchObject({ outcome: "sent", amountSent: FAUCET_AMOUNT_WEI, note: "" });
    expect(drip.transaction).toMatch(/^https?:\/\//);
  });

  test("Ctrl-C while the network's read is held, before the faucet's turn: the run stops, leaving no lock or pending operation, and the next up sends once", async () => {
    const run = await started("ctrl-c", true);
    run.emulator.setRouteDelays({ networkUpdateMs: HOLD_MS });
    const ctrlC = new AbortController();
    const stopped = run.stack.up({ ...run.engine.recorded("up stopped by Ctrl-C"), signal: ctrlC.signal });
    await until(
      "the network's read",
      () => run.arrived("PATCH", NETWORKS_PATH)[0]?.request.complete || undefined,
      120_000,
    );
    ctrlC.abort();
    await expect(stopped).rejects.toBeInstanceOf(CommandError);
    run.emulator.setRouteDelays({});
    // Pulumi's dynamic-provider host ignores Cancel: the network's create ran to its end; the faucet's never began.
    expect(run.arrived("POST", FAUCET_ROUTE)).toEqual([]);
    expect((await run.state()).pending).toEqual([]);

    const up = await run.stack.up(run.engine.recorded("up after Ctrl-C"));
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs).toMatchObject({ networkName: { value: DESIRED_NAME }, outcome: { value: "sent" } });
    expect(run.emulator.faucetSendCount(run.address)).toBe(1);
  });
});
