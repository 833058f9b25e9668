/** The emulator's throughput on loopback: far above the other figures' request rates, never their limit. */
import * as http from "http";
import { n } from "../harness";
import { get, withEmulatorProcess, type Row } from "./common";

const SECONDS = 3;

export async function runThroughput(log: (line: string) => void): Promise<Row[]> {
  return withEmulatorProcess({ seed: 1, nodes: 10_000, pageSize: 100 }, async (emulator) => {
    const rows: Row[] = [];
    const auth = { Authorization: `Bearer ${emulator.apiKey}` };
    for (const clients of [1, 8]) {
      const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
      const end = performance.now() + SECONDS * 1000;
      let done = 0;
      const loop = async (offset: number) => {
        for (let page = 1 + offset; performance.now() < end; page = (page % 100) + 1) {
          await get(`${emulator.url}/v1/nodes/?page=${page}`, auth, agent);
          done++;
        }
      };
      await Promise.all(Array.from({ length: clients }, (_, i) => loop(i * 12)));
      agent.destroy();
      const rate = done / SECONDS;
      log(`throughput: ${clients} client(s), ${Math.round(rate)} requests/s`);
      rows.push({
        section: "emulator throughput (loopback, no latency)",
        figure: `list pages of 100, ${clients} concurrent client${clients > 1 ? "s" : ""} (keep-alive), ${SECONDS} s`,
        value: `${n(Math.round(rate))} requests/s`,
        baseline: "100 requests/s (the highest rate above)",
        ...{ ratio: `${(rate / 100).toFixed(1)}x`, goal: ">= 5x (never the bottleneck)", met: rate >= 500 },
      });
    }
    return rows;
  });
}
