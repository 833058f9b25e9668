/** What the quickstart examples on the plugin (YAML, Python) show under the engine: the same outputs, the same drift. */
import type { Stack, UpResult } from "@pulumi/pulumi/automation";
import type { RunningEmulator } from "../../src/emulator";
import { call } from "./emulator";
import { EngineRun, resource } from "./engine";

/** Their `up`: the network adopted and named `declared`; node metadata readable, the endpoint and key secret. */
export function expectQuickstartUp(up: UpResult, emulator: RunningEmulator, declared: string): void {
  const network = emulator.admin.getNetwork(emulator.fixtures.networkWithNodes)!;
  // orderBy name: "Ethereum Mainnet archive node" is the first one.
  const first = emulator.admin.getNode(emulator.fixtures.beaconNode)!;
  const out = up.outputs;
  expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
  expect(network.name).toBe(declared);
  expect(out.networkName).toEqual({ value: declared, secret: false });
  expect(out.protocol).toEqual({ value: network.protocol, secret: false });
  expect(out.firstNodeId).toEqual({ value: first.id, secret: false });
  expect(out.firstNodeStatus).toEqual({ value: first.status, secret: false });
  expect(out.firstNodeHttpsEndpointMasked.secret).toBe(false);
  expect(out.firstNodeHttpsEndpointMasked.value).toMatch(
    /^http:\/\/127\.0\.0\.1:\d+\/node\/nd-[\d-]+\/\*\*\*$/,
  );
  expect(out.firstNodeHttpsEndpoint).toEqual({ value: first.details.https_endpoint, secret: true });
  expect(out.firstNodeAuthKey).toEqual({ value: first.details.auth_key, secret: true });
  // The engine shows them masked.
  expect(up.stdout).toMatch(/firstNodeAuthKey\s*: \[secret\]/);
  expect(up.stdout).toMatch(/firstNodeHttpsEndpoint\s*: \[secret\]/);
}

/** A console rename: refresh puts it in state, preview shows it changed back, up restores `declared`. */
export async function expectRenameRestored(
  run: EngineRun,
  stack: Stack,
  emulator: RunningEmulator,
  declared: string,
): Promise<void> {
  const id = emulator.fixtures.networkWithNodes;
  const stateName = async () =>
    resource((await stack.exportStack()).deployment.resources, "blockchain:index:Network", "network").outputs
      ?.name;
  const renamed = await call(emulator, `/v1/networks/${id}/`, {
    method: "PATCH",
    body: { name: "renamed-in-console" },
  });
  expect(renamed.json.name).toBe("renamed-in-console");
  const refresh = await stack.refresh(run.recorded("refresh"));
  expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
  expect(await stateName()).toBe("renamed-in-console");

  const preview = await stack.preview({ diff: true, ...run.recorded("preview drift") });
  expect(preview.changeSummary).toMatchObject({ update: 1 });
  expect(preview.stdout).toMatch(new RegExp(`~ name\\s*: "renamed-in-console" => "${declared}"`));

  const up = await stack.up(run.recorded("up restore"));
  expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
  expect(emulator.admin.getNetwork(id)!.name).toBe(declared);
  expect(await stateName()).toBe(declared);
}
