/**
 * The client at its default settings (no option but the URL and key) against the emulator with 50 ms latency
 * and pages of 100, then under the emulator's rate limit of 10 requests/s (docs/performance.md).
 */
import * as http from "http";
import { NodeServiceClient } from "../../src/api";
import { n, say } from "../harness";
import { atMost, faster, forked, get, mb, ms, timed, withEmulatorProcess, withRss, x } from "./common";
import type { EmulatorProcess, Row } from "./common";

const NODES = 10_000;
const LATENCY_MS = 50;
const PAGE_SIZE = 100;
/** Requests in flight by default: the engine's own parallelism. */
const IN_FLIGHT = 8;
const RATE_LIMIT = 10;
const PROCESSES = 4;
/** Nodes of the new process's first listing under the rate limit. */
const COLD_NODES = 3000;

/** A plain sequential loop: one request after the other, following `next` when listing. */
async function plainLoop(emulator: EmulatorProcess, urls: string[] | "list"): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const auth = { Authorization: `Bearer ${emulator.apiKey}` };
  let requests = 0;
  try {
    if (urls !== "list") for (; requests < urls.length; requests++) await get(urls[requests], auth, agent);
    for (let next = urls === "list" ? `${emulator.url}/v1/nodes/` : null; next; requests++)
      next = (JSON.parse(await get(next, auth, agent)) as { next: string | null }).next;
  } finally {
    agent.destroy();
  }
  return requests;
}

/** Of answers by status, those that answered 429: `refused of total` as a figure, its share against the goal. */
function refusals(answered: Record<string, number>) {
  const total = Object.values(answered).reduce((a, b) => a + b, 0);
  const refused = answered["429"] ?? 0;
  const ratio = `${((100 * refused) / Math.max(total, 1)).toFixed(1)}%`;
  return { value: `${refused} of ${total}`, ratio, goal: "<= 10%", met: refused <= total * 0.1 };
}

const listInProcesses = (emulator: EmulatorProcess, count: number) =>
  Promise.all(
    Array.from({ length: count }, () =>
      forked<{ ms: number; nodes: number }>("list-child.js", [emulator.url, emulator.apiKey]).then(
        ({ first }) => first,
        (error: Error) => (say(`  a listing process failed: ${error.message}`), { ms: NaN, nodes: -1 }),
      ),
    ),
  );

export async function runListing(log: (line: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  const add = (section: string, ...added: Array<Omit<Row, "section">>) =>
    rows.push(...added.map((r) => ({ section, ...r })));
  const base = { seed: 1, pageSize: PAGE_SIZE, faults: { latencyMs: LATENCY_MS } };
  const throttled = { ...base, rateLimit: RATE_LIMIT, requestLogCapacity: 100_000 };
  await withEmulatorProcess({ ...base, nodes: NODES }, async (emulator) => {
    const client = new NodeServiceClient({ apiUrl: emulator.url, apiKey: emulator.apiKey });
    await client.listAllNodes({ status: "pending" }, { limit: NODES * 2 }); // load and warm every path
    const seq = await timed(() => plainLoop(emulator, "list"));
    const before = await emulator.requests();
    const { result: par, peakGrowth } = await withRss(() =>
      timed(() => client.listAllNodes(undefined, { limit: NODES * 2 })),
    );
    const requests = (await emulator.requests()) - before;
    const pages = Math.ceil(par.result.length / PAGE_SIZE);
    const floor = Math.ceil(pages / IN_FLIGHT) * LATENCY_MS;
    log(
      `listing: ${par.result.length} nodes, ${pages} pages; client ${ms(par.ms)}, plain loop ${ms(seq.ms)}`,
    );
    const section = `default settings, listing ${n(par.result.length)} nodes (L ${LATENCY_MS} ms, P ${pages} pages)`;
    add(
      section,
      {
        figure: "listAllNodes: wall time (requests)",
        value: `${ms(par.ms)} (${requests})`,
        baseline: `plain sequential loop ${ms(seq.ms)} (${seq.result})`,
        ...faster(seq.ms / par.ms, 4),
      },
      {
        figure: `the same against the floor ceil(P/${IN_FLIGHT}) x L`,
        value: ms(par.ms),
        baseline: `floor ${ms(floor)}`,
        ...atMost(par.ms / floor, 1.5),
      },
      {
        figure: "peak RSS growth during the listing (sampled every 5 ms)",
        value: mb(peakGrowth),
        goal: "<= 64 MB",
        met: peakGrowth <= 64 * 1024 * 1024,
      },
    );

    // A new process's first listing: its send rate starts low and doubles every second.
    const [first] = await listInProcesses(emulator, 1);
    log(`a new process's first listing: ${first.nodes} nodes in ${ms(first.ms)}`);
    add(section, {
      figure: "the same, a new process's first listing",
      value: ms(first.ms),
      baseline: `this process's ${ms(par.ms)}`,
      ratio: x(first.ms / par.ms),
    });

    const ids = par.result.slice(0, 100).map((node) => node.id);
    const urls = ids.map((id) => `${emulator.url}/v1/nodes/${id}/`);
    const plain = await timed(() => plainLoop(emulator, urls));
    const fresh = new NodeServiceClient({ apiUrl: emulator.url, apiKey: emulator.apiKey });
    const atOnce = await timed(() => Promise.all(ids.map((id) => fresh.getNode(id))));
    log(`100 getNode at once: ${ms(atOnce.ms)}; 100 sequential requests ${ms(plain.ms)}`);
    add(`default settings, 100 getNode at once (L ${LATENCY_MS} ms)`, {
      figure: "wall time",
      value: ms(atOnce.ms),
      baseline: `100 sequential requests ${ms(plain.ms)}`,
      ...faster(plain.ms / atOnce.ms, 4),
    });
  });

  await withEmulatorProcess({ ...throttled, nodes: NODES }, async (limited) => {
    const section = `default settings, emulator rate limit ${RATE_LIMIT}/s (L ${LATENCY_MS} ms)`;
    const client = new NodeServiceClient({ apiUrl: limited.url, apiKey: limited.apiKey });
    await limited.statuses();
    const one = await timed(() => client.listAllNodes(undefined, { limit: NODES * 2 }));
    const refused = refusals(await limited.statuses());
    const pages = Math.ceil(one.result.length / PAGE_SIZE);
    const ideal = (pages / RATE_LIMIT) * 1000;
    log(`rate-limited listing: ${ms(one.ms)}, ${refused.value} requests answered 429`);
    add(
      section,
      {
        figure: `one listing of ${pages} pages: wall time`,
        value: ms(one.ms),
        baseline: `P/R ${ms(ideal)}`,
        ...atMost(one.ms / ideal, 1.5),
      },
      { figure: "its requests answered 429", ...refused },
    );
    await new Promise((resolve) => setTimeout(resolve, 1000)); // an empty window for the next run
    await limited.statuses();
    const all = await timed(() => listInProcesses(limited, PROCESSES));
    const allAnswered = await limited.statuses();
    const allIdeal = ((PROCESSES * pages) / RATE_LIMIT) * 1000;
    log(`${PROCESSES} processes at once: ${ms(all.ms)}, answers ${JSON.stringify(allAnswered)}`);
    const failed = all.result.filter((r) => r.nodes !== one.result.length).length;
    add(section, {
      figure: `${PROCESSES} processes listing at once against one limit: wall time (429 answers)`,
      value: `${failed > 0 ? `${failed} of ${PROCESSES} failed; ` : ""}${ms(all.ms)} (${allAnswered["429"] ?? 0})`,
      baseline: `all pages / R ${ms(allIdeal)}`,
      ratio: x(all.ms / allIdeal),
      goal: "all complete, <= 1.5x",
      met: failed === 0 && all.ms / allIdeal <= 1.5,
    });
  });

  // A new process's first listing: how much of its start the limit refuses.
  await withEmulatorProcess({ ...throttled, nodes: COLD_NODES }, async (cold) => {
    await cold.statuses();
    const [first] = await listInProcesses(cold, 1);
    const refused = refusals(await cold.statuses());
    log(
      `a new process's first listing: ${first.nodes} nodes in ${ms(first.ms)}, ${refused.value} requests answered 429`,
    );
    add(`a new process, emulator rate limit ${RATE_LIMIT}/s (L ${LATENCY_MS} ms)`, {
      figure: `its first listing, ${n(first.nodes)} nodes: requests answered 429`,
      baseline: `wall time ${ms(first.ms)}`,
      ...refused,
      met: first.nodes > 0 && refused.met,
    });
  });
  return rows;
}
