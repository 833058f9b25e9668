/**
 * Section 2: no second faucet send. FaucetDrip creates against emulators that lose answers after processing and
 * send unreadable 200s, with no daily limit (a second send is counted); `faucetSendCounts` is the judge.
 */
import { NodeServiceClient } from "../../src/api";
import { startEmulator, type Fault, type FaultOptions, type RunningEmulator } from "../../src/emulator";
import { toChecksumAddress } from "../../src/model";
import { createFaucetDrip, type FaucetDripOutputs } from "../../src/provider/faucet-drip";
import { pool, say, seconds, table, zero, type Figure } from "../harness";
import { addEmulatorSecrets, causeOf, deriveSeed, faultBeyondLatency, keep, rngFor } from "./common";

const [SECTION, CREATES, EMULATORS] = ["2 faucet", 1000, 10];
const FAUCET: Fault["match"] = { method: "POST", path: "/v1/faucet/" };

/** One-shot faults queued on every emulator before its creates: each kind at least once. */
const QUEUED: Fault[] = [
  { drop: true, after: "processing", match: FAUCET },
  ...([502, 504, 500, 503] as const).map((status): Fault => ({ status, after: "processing", match: FAUCET })),
  ...(["html", "truncated-json", "non-integer-amount", "missing-transaction"] as const).map(
    (malformed): Fault => ({ malformed, match: FAUCET }),
  ),
  { drop: true, match: FAUCET },
  { status: 429, retryAfter: "0", match: FAUCET },
  { status: 503, retryAfter: "0", match: FAUCET },
  { status: 502, match: FAUCET },
  { delayMs: 50, match: FAUCET },
];

const faults = (i: number): FaultOptions => ({
  ...{ match: FAUCET, dropRate: 0.04, rate429: 0.05, rate5xx: 0.05, dropAfterProcessingRate: 0.06 },
  ...{ rate5xxAfterProcessing: 0.05, malformedRate: 0.05, retryAfterSeconds: i % 2 === 0 ? 0 : null },
  latencyMs: [0, 5],
});

type Outcome =
  { kind: "sent" | "unknown"; outs: FaucetDripOutputs } | { kind: "refused" | "failed"; cause: string };

const REFUSAL = /^(RateLimited|Validation|Conflict|Forbidden|Unauthorized|InvalidInput)Error$/;

async function create(emulator: RunningEmulator, address: string, where: string): Promise<Outcome> {
  try {
    const { outs } = await createFaucetDrip({ address, apiUrl: emulator.url, apiKey: emulator.apiKey });
    if (outs.note) keep(SECTION, `${where} note`, outs.note);
    return { kind: outs.outcome, outs };
  } catch (error) {
    keep(SECTION, where, error);
    const refused = error instanceof Error && REFUSAL.test(error.name);
    return { kind: refused ? "refused" : "failed", cause: causeOf(error) };
  }
}

interface Group {
  emulator: RunningEmulator;
  addresses: string[];
  prefunded: boolean;
  first: Outcome[];
  second: Map<number, Outcome>;
}

export async function runFaucet(seed: number): Promise<Figure[]> {
  const started = performance.now();
  const rng = rngFor(seed, "faucet");
  const groups: Group[] = [];
  const failed = (x?: Outcome) => x !== undefined && (x.kind === "refused" || x.kind === "failed");
  for (let i = 0; i < EMULATORS; i++) {
    const prefunded = i === EMULATORS - 1;
    const emulator = await startEmulator({
      port: 0,
      seed: deriveSeed(seed, `faucet/${i}`),
      // Fresh addresses: no daily limit, so that a second send is counted rather than refused.
      faucetDailyLimit: prefunded ? 1 : 1_000_000,
    });
    addEmulatorSecrets(emulator);
    // Random addresses (160 bits: distinct), all lower case or in their EIP-55 checksummed form.
    const addresses = Array.from({ length: CREATES / EMULATORS }, () => {
      const lower = `0x${rng.hex(40)}`;
      return rng.chance(0.5) ? lower : toChecksumAddress(lower);
    });
    if (prefunded) {
      // Funded today already, by someone else: the faucet refuses these (429, next window).
      const { url: apiUrl, apiKey } = emulator;
      const client = new NodeServiceClient({ apiUrl, apiKey, maxRequestsPerSecond: 0 });
      for (const a of addresses) await client.requestTestTokens(a);
    }
    emulator.setFaults(faults(i));
    emulator.enqueueFaults(QUEUED);
    emulator.resetRequests();
    groups.push({ emulator, addresses, prefunded, first: [], second: new Map() });
  }

  try {
    await pool(groups, groups.length, async (g, gi) => {
      for (const [j, a] of g.addresses.entries())
        g.first.push(await create(g.emulator, a, `emulator ${gi} create ${j}`));
      // The next `pulumi up`: creates that failed are attempted again; unknown outcomes are recorded, not resent.
      for (const [j, o] of g.first.entries())
        if (failed(o))
          g.second.set(j, await create(g.emulator, g.addresses[j], `emulator ${gi} re-create ${j}`));
    });

    // `violations` break the goal that every outcome matches the sends.
    const figures = new Map<string, number>();
    const add = (label: string) => figures.set(label, (figures.get(label) ?? 0) + 1);
    const violations: string[] = [];
    let duplicates = 0;
    for (const [gi, g] of groups.entries()) {
      const counts = g.emulator.faucetSendCounts().byAddress;
      for (const r of g.emulator.requests().filter((r) => r.method === "POST")) {
        add("faucet requests served (all passes)");
        if (faultBeyondLatency(r.fault) !== "") add(`fault injected: ${faultBeyondLatency(r.fault)}`);
      }
      for (const [j, a] of g.addresses.entries()) {
        const sends = counts[a.toLowerCase()] ?? 0;
        const [o, again] = [g.first[j], g.second.get(j)];
        const where = `emulator ${gi} address #${j} (${o.kind}${again ? `, then ${again.kind}` : ""})`;
        const sent = o.kind === "sent" || again?.kind === "sent";
        add(`${g.prefunded ? "funded earlier today" : "fresh addresses"}: outcome ${o.kind}`);
        if (again) add(`failed creates run again (next pulumi up): ${again.kind}`);
        for (const x of [o, again]) if (x && "cause" in x) add(`cause of a failed create: ${x.cause}`);
        if (g.prefunded) {
          if (sent || sends !== 1) violations.push(`${where}, funded already: ${sends} sends`);
          continue;
        }
        if (o.kind === "unknown") add(`fresh addresses: outcome unknown, ${sends} send(s)`);
        if (sends > 1) duplicates++;
        if (sends > 1 || (sent && sends !== 1) || (failed(o) && (!again || failed(again)) && sends > 0))
          violations.push(`${where}: ${sends} sends`);
      }
    }
    const distinct = new Set(groups.flatMap((g) => g.addresses.map((a) => a.toLowerCase()))).size;
    table(
      `2. No second faucet send (${seconds(performance.now() - started)})`,
      ["figure", "value"],
      [
        ["FaucetDrip creates (distinct addresses; the last emulator's funded earlier today)", distinct],
        ...[...figures].sort(([a], [b]) => a.localeCompare(b)),
        ["duplicate sends: addresses with > 1 send (goal 0)", duplicates],
        ["outcomes that do not match the sends (goal 0)", violations.length],
      ],
    );
    for (const v of violations.slice(0, 8)) say(`  violation: ${v}`);
    return [
      zero("duplicate sends (addresses with more than 1 send)", duplicates),
      zero("outcome cross-check violations", violations.length),
    ];
  } finally {
    await Promise.all(groups.map((g) => g.emulator.close()));
  }
}
