/**
 * `verify` at scale: 100 nodes of every protocol checked against the emulator's nodes, each
 * answering after a realistic latency, against the floor of 8 checks in flight:
 * ceil(100 / 8) x latency. The network lookups (`GET` of the node list) are included.
 */
import { NodeServiceClient } from "../../src/api";
import { checkVerify, MAX_CHECKS_IN_FLIGHT, verifyNodes } from "../../src/functions/verify";
import { ms, startEmulatorProcess, timed, x } from "./common";
import type { Row } from "./common";

const NODES = 100;
/** What one answer of a node takes: a node in another region. */
const LATENCY_MS = 100;

export async function runVerify(log: (line: string) => void): Promise<Row[]> {
  const emulator = await startEmulatorProcess({ seed: 1, nodes: 150, pageSize: 100, quiet: true });
  try {
    const client = new NodeServiceClient({ apiUrl: emulator.url, apiKey: emulator.apiKey });
    const running = await client.listAllNodes({ status: "running" }, { limit: 1000 });
    const nodes = running.filter((n) => n.details.httpsEndpoint).slice(0, NODES);
    if (nodes.length < NODES) throw new Error(`only ${nodes.length} running nodes show an endpoint`);
    for (const node of nodes) {
      const res = await fetch(`${emulator.url}/_emulator/nodes/${node.id}/endpoint`, {
        method: "PUT",
        headers: { Authorization: `Bearer ${emulator.adminKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({ answer: "slow", delayMs: LATENCY_MS }),
      });
      if (!res.ok) throw new Error(`PUT endpoint of ${node.id}: ${res.status} ${await res.text()}`);
    }
    const settings = checkVerify("getNodes", true)!;
    const { result, ms: took } = await timed(() => verifyNodes("getNodes", nodes, settings, client));
    const families = new Set(result.map((n) => n.verified?.chainId)).size;
    const floor = Math.ceil(NODES / MAX_CHECKS_IN_FLIGHT) * LATENCY_MS;
    log(`verify: ${NODES} nodes (${families} chains) in ${ms(took)}; floor ${ms(floor)}`);
    return [
      {
        section: "verify (endpoint checks)",
        figure: `${NODES} nodes of every protocol, each answer after ${LATENCY_MS} ms, ${MAX_CHECKS_IN_FLIGHT} in flight`,
        value: ms(took),
        baseline: `ceil(${NODES}/${MAX_CHECKS_IN_FLIGHT}) x ${LATENCY_MS} ms = ${ms(floor)}`,
        ratio: x(took / floor),
        target: "<= 1.5x",
        met: took / floor <= 1.5,
      },
    ];
  } finally {
    await emulator.close();
  }
}
