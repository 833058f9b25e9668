/**
 * Listing 10,000 nodes against the emulator with 50 ms latency and pages of 100: the client's
 * `listAllNodes` against a sequential walk of `next` links, under R = 100 requests/s (C = 8
 * concurrent requests when the client has `maxConcurrentRequests`) and under the default limiter.
 */
import { NodeServiceClient } from "../../src/api";
import type { NodeServiceClientOptions } from "../../src/api";
import { mb, ms, startEmulatorProcess, timed, withRss, x } from "./common";
import type { Row } from "./common";

const NODES = 10_000;
const LATENCY_MS = 50;
const PAGE_SIZE = 100;
const RATE = 100;
const CONCURRENCY = 8;
const DEFAULT_RATE = 10;

type Options = NodeServiceClientOptions & { maxConcurrentRequests?: number };

/** A client with these options, or `undefined` when the client refuses `maxConcurrentRequests` as unknown. */
function client(options: Options): NodeServiceClient | undefined {
  try {
    return new NodeServiceClient(options);
  } catch (error) {
    if ("maxConcurrentRequests" in options && /maxConcurrentRequests/.test(String((error as Error).message)))
      return undefined;
    throw error;
  }
}

export async function runListing(log: (line: string) => void): Promise<Row[]> {
  const emulator = await startEmulatorProcess({
    seed: 1,
    nodes: NODES,
    pageSize: PAGE_SIZE,
    faults: { latencyMs: LATENCY_MS },
  });
  try {
    const base = { apiUrl: emulator.url, apiKey: emulator.apiKey };
    const concurrent = client({ ...base, maxRequestsPerSecond: RATE, maxConcurrentRequests: CONCURRENCY });
    const available = concurrent !== undefined;
    const parallelClient = concurrent ?? client({ ...base, maxRequestsPerSecond: RATE })!;
    const sequentialClient = client({
      ...base,
      maxRequestsPerSecond: RATE,
      ...(available ? { maxConcurrentRequests: 1 } : {}),
    })!;
    // Load and warm every path once (the package already loaded, as in a program): a complete
    // listing of a few pages, so that nothing is still in flight when the measures start.
    const warm = (c: NodeServiceClient) => c.listAllNodes({ status: "pending" }, { limit: NODES * 2 });
    for (const c of [parallelClient, sequentialClient]) await warm(c);
    const measure = async (c: NodeServiceClient) => {
      const before = await emulator.requests();
      const { result, peakGrowth } = await withRss(() =>
        timed(() => c.listAllNodes(undefined, { limit: NODES * 2 })),
      );
      return {
        ms: result.ms,
        count: result.result.length,
        requests: (await emulator.requests()) - before,
        peakGrowth,
      };
    };
    const seq = await measure(sequentialClient);
    const par = await measure(parallelClient);
    const pages = Math.ceil(par.count / PAGE_SIZE);
    const floor = Math.max((pages / RATE) * 1000, Math.ceil(pages / CONCURRENCY) * LATENCY_MS);
    log(`listing: ${par.count} nodes, ${pages} pages; parallel ${ms(par.ms)}, sequential ${ms(seq.ms)}`);

    const defaultParallel = client({
      ...base,
      ...(available ? { maxConcurrentRequests: CONCURRENCY } : {}),
    })!;
    const defaultSequential = client({ ...base, ...(available ? { maxConcurrentRequests: 1 } : {}) })!;
    for (const c of [defaultParallel, defaultSequential]) await warm(c);
    const dSeq = await measure(defaultSequential);
    const dPar = await measure(defaultParallel);
    const dFloor = Math.max((pages / DEFAULT_RATE) * 1000, Math.ceil(pages / CONCURRENCY) * LATENCY_MS);
    log(`listing, default limiter: parallel ${ms(dPar.ms)}, sequential ${ms(dSeq.ms)}`);

    const section = `listing ${par.count.toLocaleString("en-US")} nodes (L ${LATENCY_MS} ms, ${pages} pages)`;
    const mode = available
      ? `maxConcurrentRequests: ${CONCURRENCY} (sequential walk: the client with maxConcurrentRequests: 1)`
      : "maxConcurrentRequests: not available (both runs use the current client)";
    return [
      { section, figure: `client option`, value: mode, baseline: "", ratio: "", target: "" },
      {
        section,
        figure: `listAllNodes, R ${RATE}/s, C ${CONCURRENCY}: wall time (requests)`,
        value: `${ms(par.ms)} (${par.requests})`,
        baseline: `sequential walk ${ms(seq.ms)} (${seq.requests})`,
        ratio: `${x(seq.ms / par.ms)} faster`,
        target: ">= 4x faster",
        met: seq.ms / par.ms >= 4,
      },
      {
        section,
        figure: "the same against the floor max(P/R, ceil(P/C) x L)",
        value: ms(par.ms),
        baseline: `floor ${ms(floor)}`,
        ratio: x(par.ms / floor),
        target: "<= 1.25x",
        met: par.ms / floor <= 1.25,
      },
      {
        section,
        figure: "peak RSS growth during the listing (sampled every 5 ms)",
        value: mb(par.peakGrowth),
        baseline: `sequential walk ${mb(seq.peakGrowth)}`,
        ratio: x(par.peakGrowth / Math.max(seq.peakGrowth, 1)),
        target: "<= 64 MB",
        met: par.peakGrowth <= 64 * 1024 * 1024,
      },
      {
        section,
        figure: `default limiter (${DEFAULT_RATE}/s): wall time (requests)`,
        value: `${ms(dPar.ms)} (${dPar.requests})`,
        baseline: `sequential walk ${ms(dSeq.ms)} (${dSeq.requests}); floor ${ms(dFloor)}`,
        ratio: `${x(dSeq.ms / dPar.ms)} faster`,
        target: "never slower than sequential (>= 1x, 5% noise)",
        met: dPar.ms <= dSeq.ms * 1.05,
      },
    ];
  } finally {
    await emulator.close();
  }
}
