/**
 * `npm run demo`, offline: the quickstart example under the real engine against the embedded
 * emulator, through its lifecycle: up (each endpoint it exports proven at the node: `healthyNodes`
 * shows what was proven), a no-op preview, an out-of-band change caught by refresh and restored by
 * up, destroy. Secrets are never printed.
 */
import { startEmulator } from "pulumi-blockchain-nodes/emulator";
import quickstart from "../examples/quickstart";
import { emulatorConfig, EngineRun, provisionEngine } from "./engine-sandbox";

const steps: { step: string; seconds: number; result: string }[] = [];

const banner = (text: string): void => console.log(`\n=== ${text}`);

async function timed<T>(step: string, run: () => Promise<T>, describe: (value: T) => string): Promise<T> {
  banner(step);
  const start = Date.now();
  const value = await run();
  const result = describe(value);
  steps.push({ step, seconds: (Date.now() - start) / 1000, result });
  console.log(`--> ${result}`);
  return value;
}

async function main(): Promise<void> {
  banner("Pulumi engine");
  const engineDir = provisionEngine();
  console.log(`engine: ${engineDir}`);
  const emulator = await startEmulator({ port: 0 });
  let run: EngineRun | undefined;
  try {
    console.log(`emulator: ${emulator.url} (organization ${emulator.fixtures.organization})`);
    run = await EngineRun.start(undefined, "demo", engineDir);
    const stack = await run.stack(
      { stackName: "demo", projectName: "quickstart", program: quickstart, workDir: run.sandbox.dir },
      {
        ...emulatorConfig(emulator),
        "quickstart:networkId": { value: emulator.fixtures.networkWithNodes },
        "quickstart:networkName": { value: "demo-mainnet" },
        "quickstart:faucetAddress": { value: emulator.fixtures.faucetAddress },
      },
    );
    const stream = { onOutput: (out: string) => process.stdout.write(out) };
    const networkId = emulator.fixtures.networkWithNodes;

    const up = await timed(
      "up: adopt and rename the network, look up its nodes, prove their endpoints, request test tokens",
      () => stack.up(stream),
      (r) => `${r.summary.result}: ${JSON.stringify(r.summary.resourceChanges)}`,
    );
    banner("stack outputs (secrets masked)");
    for (const [key, { value, secret }] of Object.entries(up.outputs))
      console.log(`  ${key.padEnd(30)} ${secret ? "[secret]" : JSON.stringify(value)}`);

    await timed(
      "preview: nothing changed, so nothing to do",
      () => stack.preview({ ...stream, expectNoChanges: true }),
      (r) => `no changes: ${JSON.stringify(r.changeSummary)}`,
    );

    banner(`out of band: someone renames ${networkId} in the service's console`);
    emulator.admin.renameNetwork(networkId, "renamed-in-console");
    console.log(`service now says: ${emulator.admin.getNetwork(networkId)!.name}`);

    await timed(
      "refresh: the drift is caught",
      () => stack.refresh(stream),
      (r) => `refreshed: ${JSON.stringify(r.summary.resourceChanges)}`,
    );
    await timed(
      "up: the name is restored",
      () => stack.up(stream),
      (r) =>
        `${JSON.stringify(r.summary.resourceChanges)}; service now says: ${emulator.admin.getNetwork(networkId)!.name}`,
    );
    await timed(
      "destroy: stop managing the stack (the network keeps running: retainOnDelete)",
      () => stack.destroy(stream),
      (r) =>
        `${r.summary.result}: ${JSON.stringify(r.summary.resourceChanges)}; network still there: ${
          emulator.admin.getNetwork(networkId) !== undefined
        }; faucet sends: ${emulator.faucetSends().length}`,
    );

    banner("summary");
    for (const s of steps)
      console.log(`  ${s.step.split(":")[0].padEnd(8)} ${s.seconds.toFixed(1).padStart(6)} s  ${s.result}`);
  } finally {
    await emulator.close();
    await run?.close();
  }
}

main().catch((err) => {
  console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
