/** `verify` of the node functions: each node's own endpoint called as an app would before it is handed on. */
import { EndpointCheckError, normalizeChainId, quoteFromNode, readChainHead } from "../api/node-check";
import { invalidInput } from "../api/errors";
import type { Node } from "../api/types";
import type { NodeServiceClient } from "../api/client";
import { EXPECTED_CHAIN_IDS, PROTOCOL_CHAINS, PROTOCOLS, PUBLIC_NETWORKS, RPC_PATHS } from "../model/values";
import { nodeAccess } from "../model/node-fields";
import { show, type Problem } from "../model/rules";
import type { Protocol, PublicNetwork } from "../model/values";
import type { VerifiedEndpoint } from "../provider/node-views";

/**
 * How `verify` checks each node's own endpoint, called as an app would: it must answer, accept its
 * credentials, serve its network's chain and have a fresh head. Every field is optional: `{}` (or
 * `verify: true` in TypeScript) takes every default.
 */
export interface VerifyOptions {
  /**
   * The oldest head block accepted, in seconds. Default per protocol, several block times: 120
   * for Ethereum, 60 for the other EVM chains and NEAR, 300 for Arbitrum and Tezos, 600 for Starknet, 7200 for Bitcoin.
   */
  maxHeadAgeSeconds?: number;
  /** Seconds each node's check may take, from 0.1 to 300. Default 10. */
  timeoutSeconds?: number;
  /**
   * The chain the endpoint must serve, instead of the one its network's public network means:
   * an EVM chain id (`1` or `0x1`), a Starknet one (`SN_SEPOLIA`), NEAR's `testnet`, a Tezos
   * chain id, Bitcoin's `test`.
   */
  expectedChainId?: string;
  /**
   * Accept a healthy set: the call succeeds when at least this many nodes pass (an integer from
   * 1; on `getNode`, only 1), e.g. `2` for a primary and a fallback. The nodes that pass are
   * returned ordered by head freshness (newest head first), then latency; each node left out is
   * named, with why, in one warning. Default: every node must pass, in the listing's order.
   */
  minVerified?: number;
}

/** Longest message of a {@link VerifyError} or a healthy set's warning, in characters, whatever the nodes answered. */
export const MAX_VERIFY_MESSAGE_CHARS = 600;

/** An argument's name as the caller's language spells it: `timeoutSeconds` → `timeout_seconds` in Python. */
export type Spelling = (name: string) => string;
/** The schema's spelling (TypeScript, YAML, Go, C#, Java): names as they are. */
export const camelSpelling: Spelling = (name) => name;
/** Python's spelling: `maxHeadAgeSeconds` → `max_head_age_seconds`. */
export const snakeSpelling: Spelling = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** What a host gives `verify`: how its language spells the arguments (default camelCase), and where a warning goes. */
export type VerifyHost = { spell?: Spelling; warn?: (message: string) => void | Promise<void> };

/** A node as looked up, with its check's result when `verify` was asked for. */
export type CheckedNode = Node & { verified?: VerifiedEndpoint };

/** A checked `verify`; no `minVerified`: every node must pass. */
export type VerifySettings = Omit<VerifyOptions, "timeoutSeconds"> &
  VerifyHost & { timeoutMs: number; spell: Spelling };

type Rule = [(v: unknown) => boolean, string];
const number = (min: number, max: number): Rule => [
  (v) => typeof v === "number" && v >= min && v <= max,
  `expected a number from ${min} to ${max}`,
];
/** Each field of {@link VerifyOptions}: the test of its value, and what it allows. */
const FIELDS: Record<string, Rule> = {
  maxHeadAgeSeconds: number(1, 31_536_000),
  timeoutSeconds: number(0.1, 300),
  expectedChainId: [
    (v) => typeof v === "string" && /^[\w.:-]{1,100}$/.test(v),
    "expected a chain id, e.g. 1 or SN_MAIN",
  ],
  minVerified: [
    (v) => Number.isSafeInteger(v) && (v as number) >= 1,
    "expected a whole number of nodes, at least 1",
  ],
};

/** Checks a `verify` argument before any request, naming every bad field as `host.spell` writes it; `undefined`: none asked. */
export function checkVerify(operation: string, verify: unknown, host: VerifyHost = {}) {
  if (verify === undefined || verify === false) return undefined;
  const spell = host.spell ?? camelSpelling;
  const shape = `expected true or { ${Object.keys(FIELDS)
    .map((f) => `${spell(f)}?`)
    .join(", ")} }`;
  const record = (verify === true ? {} : verify) as Record<string, unknown>;
  const problems: Problem[] = [];
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    problems.push({ field: "verify", value: show(verify), allowed: shape });
  } else {
    for (const [name, value] of Object.entries(record)) {
      const rule = Object.hasOwn(FIELDS, name) ? FIELDS[name] : undefined;
      if (!rule || (value !== undefined && !rule[0](value)))
        problems.push({
          field: `verify.${spell(name)}`,
          value: show(value),
          allowed: rule?.[1] ?? `unknown field; ${shape}`,
        });
    }
  }
  if (problems.length > 0)
    throw invalidInput(operation, problems, {
      code: "invalid_verify",
      summary: "invalid verify, nothing was sent",
    });
  const { timeoutSeconds = 10, ...checked } = record as VerifyOptions;
  return { ...checked, timeoutMs: timeoutSeconds * 1000, spell, warn: host.warn };
}

type FailureKind = EndpointCheckError["kind"];

/** What to do about each kind of failure, the arguments named as `spell` writes them. */
function advice(kind: FailureKind, spell: Spelling): string {
  const verify = (name: string) => `verify.${spell(name)}`;
  switch (kind) {
    case "not-running":
      return `Only a running node answers: add ${spell("waitFor")}: { status: "running" } to wait for it.`;
    case "no-endpoint":
      return "Endpoints are shown only to the node's owner: use an API key of the node's organization.";
    case "unreachable":
      return `Check that the node is up and reachable from here; raise ${verify("timeoutSeconds")} if it is only slow.`;
    case "credentials":
      return "The endpoint refused the credentials the service gives for it: if they were just rotated, run again; otherwise check the node's access rules in the service's console.";
    case "answer":
      return "The endpoint does not answer as a node of its protocol: check the node in the service's console.";
    case "unsupported":
      return `Pass ${verify("expectedChainId")}, or leave this node out of verify.`;
    case "wrong-chain":
      return `Point the app at a node of the right network, or pass ${verify("expectedChainId")} if this chain is intended.`;
    case "stale":
      return `The node is behind its chain: check it in the service's console, or raise ${verify("maxHeadAgeSeconds")} if this age is expected.`;
  }
}

/** Failures a wait cannot mend: it ends at once on them. */
const LASTING: readonly FailureKind[] = ["no-endpoint", "wrong-chain", "unsupported"];

type Failed = readonly [Node, EndpointCheckError];

/** `text` on one line, at most {@link MAX_VERIFY_MESSAGE_CHARS} characters (cut with `…`). */
function bounded(text: string, max = MAX_VERIFY_MESSAGE_CHARS): string {
  const line = text.replace(/[\r\n]+/g, " ");
  return line.length <= max ? line : `${line.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, "")}…`;
}

/**
 * `head`, then as many failures (`id: why`; `why` alone when not `named`) as fit in the bound with
 * `tail` and the advice for their kinds (in `advise`'s spelling), then `and N more`.
 */
function listed(
  head: string,
  failures: readonly Failed[],
  { advise, tail = "", named = true }: { advise?: Spelling; tail?: string; named?: boolean } = {},
): string {
  const compose = (count: number) => {
    const items = failures.slice(0, count).map(([n, f]) => (named ? `${n.id}: ${f.message}` : f.message));
    if (count < failures.length) items.push(`and ${failures.length - count} more`);
    const kinds = [...new Set(failures.slice(0, count).map(([, f]) => f.kind))];
    return `${head}${items.join("; ")}.${tail}${advise ? kinds.map((k) => ` ${advice(k, advise)}`).join("") : ""}`;
  };
  let count = Math.min(1, failures.length);
  while (count < failures.length && compose(count + 1).length <= MAX_VERIFY_MESSAGE_CHARS) count++;
  return bounded(compose(count));
}

/**
 * The endpoint checks that failed, one message (at most {@link MAX_VERIFY_MESSAGE_CHARS}
 * characters) naming each node, what failed and what to do; with `minVerified`, how many passed
 * of how many asked. `lasting`: no wait can mend them.
 */
export class VerifyError extends Error {
  override name = "VerifyError";
  readonly lasting: boolean;
  constructor(
    operation: string,
    failures: readonly Failed[],
    total: number,
    { spell = camelSpelling, minVerified }: { spell?: Spelling; minVerified?: number } = {},
  ) {
    super(verifyMessage(operation, failures, total, spell, minVerified));
    const lasting = failures.filter(([, f]) => LASTING.includes(f.kind)).length;
    // With `minVerified`: lasting when too few nodes can still pass for any wait to reach it.
    this.lasting = minVerified === undefined ? lasting === failures.length : total - lasting < minVerified;
  }
}

function verifyMessage(
  operation: string,
  failures: readonly Failed[],
  total: number,
  spell: Spelling,
  min?: number,
) {
  if (min === undefined) {
    const head =
      total === 1
        ? `${operation}: ${failures[0][0].id} failed its endpoint check: `
        : `${operation}: ${failures.length} of ${total} nodes failed their endpoint check: `;
    return listed(head, failures, { advise: spell, named: total !== 1 });
  }
  const nodes = (n: number) => `${n} node${n === 1 ? "" : "s"}`;
  const option = `verify.${spell("minVerified")}`;
  const head = `${operation}: ${total - failures.length} of ${nodes(total)} passed the endpoint check, ${option} asks ${min}`;
  const tail = total < min ? ` Only ${nodes(total)} matched: widen the filters or lower ${option}.` : "";
  return failures.length > 0
    ? listed(`${head}: `, failures, { advise: spell, tail })
    : bounded(`${head}.${tail}`);
}

/** A protocol or public network already known from the call's own filters. */
export type Known = { protocol?: Protocol; publicNetwork?: PublicNetwork };

/** Each network's protocol and public network, found once per process (they never change). */
const networkChains = new Map<string, Promise<Known>>();

/** A network's protocol and public network, from the node list's filters (`GET` only, as a preview must). */
function networkChain(operation: string, client: NodeServiceClient, network: string, known: Known) {
  if (known.publicNetwork)
    return Promise.resolve({ ...known, protocol: PUBLIC_NETWORKS[known.publicNetwork] });
  const key = `${client.apiUrl} ${network}`;
  const found = networkChains.get(key);
  if (found) return found;
  const has = async (filters: Known) => {
    for await (const _ of client.listNodes({ network, ...filters }, { operation, prefetch: false }))
      return true;
    return false;
  };
  // The one value whose filter lists the network's nodes; none or several (a filter ignored): unknown.
  const oneOf = async <T>(values: readonly T[], test: (v: T) => Promise<boolean>) => {
    const found = await Promise.all(values.map(test));
    return found.filter(Boolean).length === 1 ? values[found.indexOf(true)] : undefined;
  };
  const finding = (async () => {
    const protocol = known.protocol ?? (await oneOf(PROTOCOLS, (p) => has({ protocol: p })));
    const names = (Object.keys(PUBLIC_NETWORKS) as PublicNetwork[]).filter(
      (n) => PUBLIC_NETWORKS[n] === protocol,
    );
    return { protocol, publicNetwork: await oneOf(names, (n) => has({ publicNetwork: n })) };
  })();
  networkChains.set(key, finding);
  finding.catch(() => networkChains.delete(key));
  return finding;
}

async function checkNode(
  operation: string,
  node: Node,
  settings: VerifySettings,
  client: NodeServiceClient,
  known: Known,
): Promise<VerifiedEndpoint> {
  const fail = (kind: FailureKind, message: string) => new EndpointCheckError(kind, message);
  if (node.status !== "running") throw fail("not-running", `it is ${node.status}, not running`);
  const access = nodeAccess(node.details);
  if (!access.url) throw fail("no-endpoint", "it shows no HTTPS endpoint to this API key");
  const { protocol, publicNetwork } = await networkChain(operation, client, node.network, known);
  const network = `its network ${node.network}`;
  if (!protocol)
    throw fail("unsupported", `the node list does not tell one protocol this package checks for ${network}`);
  const { family, maxHeadAgeSeconds } = PROTOCOL_CHAINS[protocol];
  const expected = settings.expectedChainId
    ? [normalizeChainId(family, settings.expectedChainId)]
    : publicNetwork && EXPECTED_CHAIN_IDS[publicNetwork];
  if (!expected) throw fail("unsupported", `the chain of ${network} (${protocol}) is not known here`);
  const head = await readChainHead(family, access, settings.timeoutMs, RPC_PATHS[protocol]);
  const checkedAt = new Date();
  const headAgeSeconds = Math.max(0, Math.floor((checkedAt.getTime() - head.headTime) / 1000));
  // A head dated in the future (beyond clock skew) is no head: a time in ms, or garbage.
  const ahead = Math.round((head.headTime - checkedAt.getTime()) / 1000);
  if (ahead > 300) throw fail("answer", `its head block ${head.headBlock} is dated ${ahead} s in the future`);
  if (!expected.includes(head.chainId)) {
    const wanted = settings.expectedChainId
      ? `verify.${settings.spell("expectedChainId")} says`
      : `${publicNetwork} is`;
    // The chain id is the node's own text: capped, and cleaned of its credentials.
    const served = quoteFromNode(head.chainId, access);
    throw fail("wrong-chain", `wrong chain: it serves ${served}, ${wanted} ${expected.join(" or ")}`);
  }
  const maxAge = settings.maxHeadAgeSeconds ?? maxHeadAgeSeconds;
  if (headAgeSeconds > maxAge)
    throw fail(
      "stale",
      `its head block ${head.headBlock} is ${headAgeSeconds} s old (at most ${maxAge} s accepted)`,
    );
  const { chainId, headBlock, latencyMs } = head;
  return { chainId, headBlock, headAgeSeconds, latencyMs, checkedAt: checkedAt.toISOString() };
}

/**
 * Nodes that passed, the freshest first: the youngest head (`headAgeSeconds`), then, when they all
 * serve one chain, the highest head block, then the lowest latency; ties keep their order.
 */
export function byFreshness<N extends { verified: VerifiedEndpoint }>(nodes: readonly N[]): N[] {
  const oneChain = new Set(nodes.map((n) => n.verified.chainId)).size <= 1;
  return [...nodes].sort(
    ({ verified: a }, { verified: b }) =>
      a.headAgeSeconds - b.headAgeSeconds ||
      (oneChain ? b.headBlock - a.headBlock : 0) ||
      a.latencyMs - b.latencyMs,
  );
}

/**
 * Checks every node's endpoint at once (at most `MAX_CHECKS_IN_FLIGHT` in flight in the process).
 * Without `minVerified`: each node with its `verified`, in order, or one {@link VerifyError} naming
 * every failure. With it: the nodes that passed {@link byFreshness}, those left out named in one
 * warning through `settings.warn`; a {@link VerifyError} when fewer than `minVerified` passed.
 */
export async function verifyNodes(
  operation: string,
  nodes: readonly Node[],
  settings: VerifySettings,
  client: NodeServiceClient,
  known: Known = {},
): Promise<CheckedNode[]> {
  const results = await Promise.all(
    nodes.map((node) =>
      checkNode(operation, node, settings, client, known).then(
        (verified) => ({ ...node, verified }),
        (e: unknown) => {
          if (e instanceof EndpointCheckError) return [node, e] as const;
          throw e;
        },
      ),
    ),
  );
  const failures = results.filter((r): r is Failed => Array.isArray(r));
  const passed = results.filter((r): r is Node & { verified: VerifiedEndpoint } => !Array.isArray(r));
  const { minVerified, spell, warn } = settings;
  if (minVerified === undefined ? failures.length > 0 : passed.length < minVerified)
    throw new VerifyError(operation, failures, nodes.length, { spell, minVerified });
  if (minVerified === undefined) return passed;
  if (failures.length > 0 && warn) {
    const option = `verify.${spell("minVerified")} ${minVerified}`;
    const head = `${operation}: ${passed.length} of ${nodes.length} nodes passed the endpoint check (${option}); left out: `;
    // A warning that cannot be shown never fails the call.
    await Promise.resolve()
      .then(() => warn(listed(head, failures)))
      .catch(() => undefined);
  }
  return byFreshness(passed);
}
