/**
 * `verify` at scale, cold (each on an emulator of its own, the network lookups included), against the floor
 * the process's bound of checks in flight allows (docs/performance.md).
 */
import { MAX_CHECKS_IN_FLIGHT, NodeServiceClient } from "../../src/api";
import { checkVerify, verifyNodes } from "../../src/functions/verify";
import { pool } from "../harness";
import { atMost, ms, timed, withEmulatorProcess, x, type Row } from "./common";

/** What one answer of a node takes: a node in another region. */
const LATENCY_MS = 100;

export async function runVerify(log: (line: string) => void): Promise<Row[]> {
  return [
    await measure(log, { nodes: 100, calls: 1, seeded: 150 }),
    await measure(log, { nodes: 1000, calls: 100, seeded: 1700 }),
  ];
}

/** `nodes` nodes (of an emulator seeded with `seeded`) verified in `calls` separate calls at once. */
async function measure(
  log: (line: string) => void,
  { nodes: count, calls, seeded }: { nodes: number; calls: number; seeded: number },
): Promise<Row> {
  return withEmulatorProcess({ seed: 1, nodes: seeded, pageSize: 100, quiet: true }, async (emulator) => {
    const client = new NodeServiceClient({ apiUrl: emulator.url, apiKey: emulator.apiKey });
    const running = await client.listAllNodes({ status: "running" }, { limit: 2 * seeded });
    const nodes = running.filter((n) => n.details.httpsEndpoint).slice(0, count);
    if (nodes.length < count) throw new Error(`only ${nodes.length} running nodes show an endpoint`);
    await pool(nodes, 50, async (node) => {
      const res = await fetch(`${emulator.url}/_emulator/nodes/${node.id}/endpoint`, {
        method: "PUT",
        headers: { Authorization: `Bearer ${emulator.adminKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({ answer: "slow", delayMs: LATENCY_MS }),
      });
      if (!res.ok) throw new Error(`PUT endpoint of ${node.id}: ${res.status} ${await res.text()}`);
    });
    const settings = checkVerify("getNodes", true)!;
    const per = count / calls;
    const batches = Array.from({ length: calls }, (_, c) => nodes.slice(c * per, (c + 1) * per));
    const { result, ms: took } = await timed(() =>
      Promise.all(batches.map((batch) => verifyNodes("getNodes", batch, settings, client))),
    );
    const chains = new Set(result.flat().map((n) => n.verified?.chainId)).size;
    const floor = Math.ceil(count / MAX_CHECKS_IN_FLIGHT) * LATENCY_MS;
    const across = calls > 1 ? ` across ${calls} separate calls` : "";
    log(
      `verify: ${count} nodes${across} (${chains} chains) in ${ms(took)}; floor ${ms(floor)}, ${x(took / floor)}`,
    );
    return {
      section: "verify (endpoint checks)",
      figure: `${count} nodes of every protocol${across}, each answer after ${LATENCY_MS} ms, ${MAX_CHECKS_IN_FLIGHT} in flight`,
      value: ms(took),
      baseline: `ceil(${count}/${MAX_CHECKS_IN_FLIGHT}) x ${LATENCY_MS} ms = ${ms(floor)}`,
      ...atMost(took / floor, 1.5),
    };
  });
}
