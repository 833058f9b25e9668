/**
 * Section 2: no second faucet send. FaucetDrip creates against emulators that lose answers after
 * processing and send unreadable 200s, with no daily limit (a second send is counted, not
 * refused); the emulator's `faucetSendCounts` is the judge.
 */
import { NodeServiceClient } from "../../src/api";
import { startEmulator, type Fault, type FaultOptions, type RunningEmulator } from "../../src/emulator";
import { toChecksumAddress } from "../../src/model";
import { createFaucetDrip, type FaucetDripOutputs } from "../../src/provider/faucet-drip";
import {
  Goal,
  Rng,
  addEmulatorSecrets,
  causeOf,
  deriveSeed,
  faultBeyondLatency,
  keep,
  pool,
  say,
  seconds,
  table,
  zeroGoal,
} from "./common";

const SECTION = "2 faucet";
const FAUCET: Fault["match"] = { method: "POST", path: "/v1/faucet/" };

/** One-shot faults queued on every emulator before its creates: each kind at least once. */
const QUEUED: Fault[] = [
  { drop: true, after: "processing", match: FAUCET },
  { status: 502, after: "processing", match: FAUCET },
  { status: 504, after: "processing", match: FAUCET },
  { status: 500, after: "processing", match: FAUCET },
  { status: 503, after: "processing", match: FAUCET },
  { malformed: "html", match: FAUCET },
  { malformed: "truncated-json", match: FAUCET },
  { malformed: "non-integer-amount", match: FAUCET },
  { malformed: "missing-transaction", match: FAUCET },
  { drop: true, match: FAUCET },
  { status: 429, retryAfter: "0", match: FAUCET },
  { status: 503, retryAfter: "0", match: FAUCET },
  { status: 502, match: FAUCET },
  { delayMs: 50, match: FAUCET },
];

function faults(i: number): FaultOptions {
  return {
    match: FAUCET,
    dropRate: 0.04,
    rate429: 0.05,
    rate5xx: 0.05,
    dropAfterProcessingRate: 0.06,
    rate5xxAfterProcessing: 0.05,
    malformedRate: 0.05,
    retryAfterSeconds: i % 2 === 0 ? 0 : null,
    latencyMs: [0, 5],
  };
}

/** A random address: all lower case, or its EIP-55 checksummed form. */
function randomAddress(rng: Rng): string {
  const lower = `0x${rng.hex(40)}`;
  return rng.chance(0.5) ? lower : toChecksumAddress(lower);
}

type Outcome =
  { kind: "sent" | "unknown"; outs: FaucetDripOutputs } | { kind: "refused" | "failed"; cause: string };

const REFUSALS = new Set([
  "RateLimitedError",
  "ValidationError",
  "ConflictError",
  "ForbiddenError",
  "UnauthorizedError",
  "InvalidInputError",
]);

async function create(emulator: RunningEmulator, address: string, where: string): Promise<Outcome> {
  try {
    const { outs } = await createFaucetDrip({ address, apiUrl: emulator.url, apiKey: emulator.apiKey });
    if (outs.note) keep(SECTION, `${where} note`, outs.note);
    return { kind: outs.outcome, outs };
  } catch (error) {
    keep(SECTION, where, error);
    const refused = error instanceof Error && REFUSALS.has(error.name);
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

/** Runs section 2 and prints its table; returns its goals. */
export async function runFaucet(options: { seed: number; creates: number }): Promise<Goal[]> {
  const started = performance.now();
  const emulators = 10;
  const perEmulator = Math.ceil(options.creates / emulators);
  const rng = new Rng(deriveSeed(options.seed, "faucet"));
  const seen = new Set<string>();
  const groups: Group[] = [];
  for (let i = 0; i < emulators; i++) {
    const prefunded = i === emulators - 1;
    const emulator = await startEmulator({
      port: 0,
      seed: deriveSeed(options.seed, `faucet/${i}`),
      // Fresh addresses: no daily limit, so that a second send is counted rather than refused.
      faucetDailyLimit: prefunded ? 1 : 1_000_000,
    });
    addEmulatorSecrets(emulator);
    const addresses: string[] = [];
    while (
      addresses.length < perEmulator &&
      groups.length * perEmulator + addresses.length < options.creates
    ) {
      const a = randomAddress(rng);
      if (seen.has(a.toLowerCase())) continue;
      seen.add(a.toLowerCase());
      addresses.push(a);
    }
    if (prefunded) {
      // Funded today already, by someone else: the faucet refuses these (429, next window).
      const client = new NodeServiceClient({
        apiUrl: emulator.url,
        apiKey: emulator.apiKey,
        maxRequestsPerSecond: 0,
      });
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
      for (const [j, o] of g.first.entries()) {
        if (o.kind === "refused" || o.kind === "failed") {
          g.second.set(j, await create(g.emulator, g.addresses[j], `emulator ${gi} re-create ${j}`));
        }
      }
    });

    const count = { sent: 0, unknown: 0, refused: 0, failed: 0 };
    const second = { sent: 0, unknown: 0, refused: 0, failed: 0 };
    const funded = { sent: 0, unknown: 0, refused: 0, failed: 0 };
    const failCauses = new Map<string, number>();
    const faultKinds = new Map<string, number>();
    let requests = 0;
    let injected = 0;
    let duplicates = 0;
    let sentNotOne = 0;
    let unknownMoreThanOne = 0;
    let unknownOne = 0;
    let unknownZero = 0;
    let refusedButSent = 0;
    let prefundedSent = 0;
    let prefundedCountWrong = 0;
    let prefundedTotal = 0;
    const violations: string[] = [];
    for (const [gi, g] of groups.entries()) {
      const counts = g.emulator.faucetSendCounts().byAddress;
      for (const r of g.emulator.requests()) {
        if (r.method !== "POST") continue;
        requests++;
        const label = faultBeyondLatency(r.fault);
        if (label === "") continue;
        injected++;
        faultKinds.set(label, (faultKinds.get(label) ?? 0) + 1);
      }
      for (const [j, a] of g.addresses.entries()) {
        const sends = counts[a.toLowerCase()] ?? 0;
        const o = g.first[j];
        const again = g.second.get(j);
        (g.prefunded ? funded : count)[o.kind]++;
        if (again) second[again.kind]++;
        for (const x of [o, again]) {
          if (x && (x.kind === "refused" || x.kind === "failed")) {
            const cause = `${g.prefunded ? "funded earlier, " : ""}${x.kind === "refused" ? "refusal" : "other"}: ${x.cause}`;
            failCauses.set(cause, (failCauses.get(cause) ?? 0) + 1);
          }
        }
        const where = `emulator ${gi} address #${j}`;
        if (g.prefunded) {
          prefundedTotal++;
          if (o.kind === "sent" || again?.kind === "sent") {
            prefundedSent++;
            violations.push(`${where} (funded already): outcome sent`);
          }
          if (sends !== 1) {
            prefundedCountWrong++;
            violations.push(`${where} (funded already): ${sends} sends`);
          }
          continue;
        }
        if (sends > 1) {
          duplicates++;
          violations.push(`${where}: ${sends} sends (${o.kind}${again ? `, then ${again.kind}` : ""})`);
        }
        const failed = (x: Outcome | undefined) =>
          x !== undefined && (x.kind === "refused" || x.kind === "failed");
        // "sent": exactly one send (a failed first create must not have sent anything).
        if ((o.kind === "sent" || again?.kind === "sent") && sends !== 1) {
          sentNotOne++;
          violations.push(`${where}: outcome sent but ${sends} sends`);
        }
        // "unknown": zero or one send.
        if (o.kind === "unknown" || again?.kind === "unknown") {
          if (sends > 1) unknownMoreThanOne++;
        }
        if (o.kind === "unknown") {
          if (sends === 1) unknownOne++;
          else if (sends === 0) unknownZero++;
        }
        // A failed create (both passes failed): nothing may have been sent.
        if (failed(o) && (again === undefined || failed(again)) && sends > 0) {
          refusedButSent++;
          violations.push(
            `${where}: create failed (${o.kind}${again ? `, then ${again.kind}` : ""}) but ${sends} send(s)`,
          );
        }
      }
    }
    const total = groups.reduce((n, g) => n + g.addresses.length, 0);
    const rows: Array<Array<string | number>> = [
      [
        "FaucetDrip creates (distinct addresses)",
        `${total} (${total - prefundedTotal} fresh on 9 emulators, ${prefundedTotal} funded earlier today on 1)`,
      ],
      ["faucet requests served (all passes)", requests],
      [
        "faults injected on them (emulator record)",
        `${injected} (${((100 * injected) / Math.max(1, requests)).toFixed(1)}%)`,
      ],
      ...[...faultKinds].sort((x, y) => y[1] - x[1]).map(([k, n]): [string, number] => [`  ${k}`, n]),
      ["fresh addresses: outcome sent", count.sent],
      ["fresh addresses: outcome unknown (may have been processed)", count.unknown],
      ["  unknown, tokens were sent (1 send)", unknownOne],
      ["  unknown, nothing was sent (0 sends)", unknownZero],
      ["fresh addresses: failed with a clear refusal", count.refused],
      ["fresh addresses: failed otherwise", count.failed],
      [
        "funded earlier today: sent / unknown / refused / failed",
        `${funded.sent} / ${funded.unknown} / ${funded.refused} / ${funded.failed}`,
      ],
      ["causes of failed creates (both passes)", ""],
      ...[...failCauses].map(([k, n]): [string, number] => [`  ${k}`, n]),
      [
        "failed creates run again (next pulumi up)",
        `${second.sent + second.unknown + second.refused + second.failed}: sent ${second.sent}, unknown ${second.unknown}, refused ${second.refused}, failed ${second.failed}`,
      ],
      ["duplicate sends: addresses with > 1 send (goal 0)", duplicates],
      ["cross-check: sent without exactly 1 send (goal 0)", sentNotOne],
      ["cross-check: unknown with > 1 send (goal 0)", unknownMoreThanOne],
      ["cross-check: failed create, yet a send recorded (goal 0)", refusedButSent],
      ["funded earlier: created as sent (goal 0)", prefundedSent],
      ["funded earlier: send count not exactly 1 (goal 0)", prefundedCountWrong],
    ];
    table(`2. No second faucet send (${seconds(performance.now() - started)})`, ["figure", "value"], rows);
    for (const v of violations.slice(0, 8)) say(`  violation: ${v}`);
    const crossCheck = sentNotOne + unknownMoreThanOne + refusedButSent + prefundedSent + prefundedCountWrong;
    return [
      zeroGoal("2 faucet", "duplicate sends (addresses with more than 1 send)", duplicates),
      zeroGoal("2 faucet", "outcome cross-check violations", crossCheck),
    ];
  } finally {
    await Promise.all(groups.map((g) => g.emulator.close()));
  }
}
