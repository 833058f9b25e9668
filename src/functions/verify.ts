/**
 * `verify` of the node functions: each node's own endpoint called as an app would, its chain and
 * head checked, before its endpoint is handed on. Pulumi-free, shared by both hosts.
 */
import { EndpointCheckError, invalidInput, normalizeChainId, quoteFromNode, readChainHead } from "../api";
import type { Node, NodeServiceClient } from "../api";
import {
  EXPECTED_CHAIN_IDS,
  PROTOCOL_CHAINS,
  PROTOCOLS,
  PUBLIC_NETWORKS,
  RPC_PATHS,
  nodeAccess,
  show,
} from "../model";
import type { Problem, Protocol, PublicNetwork } from "../model";
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

/** Default of {@link VerifyOptions.timeoutSeconds}. */
export const DEFAULT_VERIFY_TIMEOUT_SECONDS = 10;
/** Longest message of a {@link VerifyError} or a healthy set's warning, in characters, whatever the nodes answered. */
export const MAX_VERIFY_MESSAGE_CHARS = 600;

/** An argument's name as the caller's language spells it: `timeoutSeconds` → `timeout_seconds` in Python. */
export type Spelling = (name: string) => string;

/** The schema's spelling (TypeScript, YAML, Go, C#, Java): names as they are. */
export const camelSpelling: Spelling = (name) => name;

/** Python's spelling: `maxHeadAgeSeconds` → `max_head_age_seconds`. */
export const snakeSpelling: Spelling = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** What a host gives `verify`: how its language spells the arguments, and where a warning goes. */
export interface VerifyHost {
  /** Default {@link camelSpelling}. */
  spell?: Spelling;
  /** Shows a warning line (a healthy set's nodes left out) in the program's log; none: not shown. */
  warn?: (message: string) => void | Promise<void>;
}

/** A node as looked up, with its check's result when `verify` was asked for. */
export type CheckedNode = Node & { verified?: VerifiedEndpoint };

/** A checked `verify`, with the host's spelling and warning. */
export interface VerifySettings {
  maxHeadAgeSeconds?: number;
  timeoutMs: number;
  expectedChainId?: string;
  /** Undefined: every node must pass. */
  minVerified?: number;
  spell: Spelling;
  warn?: VerifyHost["warn"];
}

const LIMITS = { maxHeadAgeSeconds: [1, 31_536_000], timeoutSeconds: [0.1, 300] } as const;
const FIELDS = ["maxHeadAgeSeconds", "timeoutSeconds", "expectedChainId", "minVerified"];

/**
 * Checks a `verify` argument completely before any request: `undefined` when no check is asked
 * for. Fields are named as `host.spell` writes them.
 */
export function checkVerify(
  operation: string,
  verify: unknown,
  host: VerifyHost = {},
): VerifySettings | undefined {
  if (verify === undefined || verify === false) return undefined;
  const spell = host.spell ?? camelSpelling;
  const field = (name: string) => `verify.${spell(name)}`;
  const shape = `expected true or { ${FIELDS.map((f) => `${spell(f)}?`).join(", ")} }`;
  const record = verify === true ? {} : (verify as Record<string, unknown>);
  const problems: Problem[] =
    typeof record === "object" && record !== null && !Array.isArray(record)
      ? Object.keys(record)
          .filter((k) => !FIELDS.includes(k))
          .map((k) => ({ field: field(k), value: show(record[k]), allowed: `unknown field; ${shape}` }))
      : [{ field: "verify", value: show(verify), allowed: shape }];
  // Each known field checked once the shape is right, every problem named in one pass.
  const shaped = problems.length === 0;
  const get = (k: string) => (shaped && Object.hasOwn(record, k) ? record[k] : undefined);
  for (const [name, [min, max]] of Object.entries(LIMITS)) {
    const value = get(name);
    if (value !== undefined && !(typeof value === "number" && value >= min && value <= max)) {
      problems.push({
        field: field(name),
        value: show(value),
        allowed: `expected a number from ${min} to ${max}`,
      });
    }
  }
  const expected = get("expectedChainId");
  if (expected !== undefined && !(typeof expected === "string" && /^[\w.:-]{1,100}$/.test(expected))) {
    problems.push({
      field: field("expectedChainId"),
      value: show(expected),
      allowed: "expected a chain id, e.g. 1 or SN_MAIN",
    });
  }
  const minVerified = get("minVerified");
  if (minVerified !== undefined && !(Number.isSafeInteger(minVerified) && (minVerified as number) >= 1)) {
    problems.push({
      field: field("minVerified"),
      value: show(minVerified),
      allowed: "expected a whole number of nodes, at least 1",
    });
  }
  if (problems.length > 0)
    throw invalidInput(operation, problems, {
      code: "invalid_verify",
      summary: "invalid verify, nothing was sent",
    });
  const timeout = get("timeoutSeconds") as number | undefined;
  return {
    maxHeadAgeSeconds: get("maxHeadAgeSeconds") as number | undefined,
    timeoutMs: (timeout ?? DEFAULT_VERIFY_TIMEOUT_SECONDS) * 1000,
    expectedChainId: expected as string | undefined,
    minVerified: minVerified as number | undefined,
    spell,
    warn: host.warn,
  };
}

type FailureKind = EndpointCheckError["kind"] | "not-running" | "no-endpoint" | "wrong-chain" | "stale";

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

/** One node's failed check. */
class NodeFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
  }
}

type Failed = readonly [Node, NodeFailure];

/** `text` on one line, at most `max` characters (cut with `…`). */
function bounded(text: string, max = MAX_VERIFY_MESSAGE_CHARS): string {
  const line = text.replace(/[\r\n]+/g, " ");
  return line.length <= max ? line : `${line.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, "")}…`;
}

/**
 * `head`, then as many failures (`id: why`; `why` alone when not `named`) as fit in
 * {@link MAX_VERIFY_MESSAGE_CHARS} with `tail` and the advice for their kinds (in `advise`'s
 * spelling), then `and N more`; the first failure always, the whole cut at the bound if even it
 * does not fit.
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
    const advices = advise ? kinds.map((k) => ` ${advice(k, advise)}`).join("") : "";
    return `${head}${items.join("; ")}.${tail}${advices}`;
  };
  let count = Math.min(1, failures.length);
  let text = compose(count);
  while (count < failures.length) {
    const more = compose(count + 1);
    if (more.length > MAX_VERIFY_MESSAGE_CHARS) break;
    [count, text] = [count + 1, more];
  }
  return bounded(text);
}

/** Whether a healthy set of `min` can no longer be reached by waiting: too few nodes can still pass. */
const beyondWaiting = (failures: readonly Failed[], total: number, min: number) =>
  total - failures.filter(([, f]) => LASTING.includes(f.kind)).length < min;

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
    options: { spell?: Spelling; minVerified?: number } = {},
  ) {
    super(verifyMessage(operation, failures, total, options));
    const { minVerified } = options;
    this.lasting =
      minVerified === undefined
        ? failures.every(([, f]) => LASTING.includes(f.kind))
        : beyondWaiting(failures, total, minVerified);
  }
}

/** The message of a {@link VerifyError}. */
function verifyMessage(
  operation: string,
  failures: readonly Failed[],
  total: number,
  { spell = camelSpelling, minVerified }: { spell?: Spelling; minVerified?: number },
): string {
  if (minVerified === undefined) {
    const head =
      total === 1
        ? `${operation}: ${failures[0][0].id} failed its endpoint check: `
        : `${operation}: ${failures.length} of ${total} nodes failed their endpoint check: `;
    return listed(head, failures, { advise: spell, named: total !== 1 });
  }
  const nodes = (n: number) => `${n} node${n === 1 ? "" : "s"}`;
  const option = `verify.${spell("minVerified")}`;
  const head = `${operation}: ${total - failures.length} of ${nodes(total)} passed the endpoint check, ${option} asks ${minVerified}`;
  const fewer =
    total < minVerified ? ` Only ${nodes(total)} matched: widen the filters or lower ${option}.` : "";
  return failures.length > 0
    ? listed(`${head}: `, failures, { advise: spell, tail: fewer })
    : bounded(`${head}.${fewer}`);
}

/** Each network's protocol and public network, found once per process (they never change). */
const networkChains = new Map<string, Promise<{ protocol?: Protocol; publicNetwork?: PublicNetwork }>>();

/** A network's protocol and public network, from the node list's filters (`GET` only, as a preview must). */
function networkChain(operation: string, client: NodeServiceClient, network: string, known: Known) {
  const { protocol: given, publicNetwork: named } = known;
  if (named) return Promise.resolve({ protocol: PUBLIC_NETWORKS[named], publicNetwork: named });
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
    const protocol = given ?? (await oneOf(PROTOCOLS, (p) => has({ protocol: p })));
    const names = (Object.keys(PUBLIC_NETWORKS) as PublicNetwork[]).filter(
      (n) => PUBLIC_NETWORKS[n] === protocol,
    );
    return { protocol, publicNetwork: await oneOf(names, (n) => has({ publicNetwork: n })) };
  })();
  networkChains.set(key, finding);
  finding.catch(() => networkChains.delete(key));
  return finding;
}

/** A protocol or public network already known from the call's own filters. */
export type Known = { protocol?: Protocol; publicNetwork?: PublicNetwork };

async function checkNode(
  operation: string,
  node: Node,
  settings: VerifySettings,
  client: NodeServiceClient,
  known: Known,
): Promise<VerifiedEndpoint> {
  const fail = (kind: FailureKind, message: string) => new NodeFailure(kind, message);
  if (node.status !== "running") throw fail("not-running", `it is ${node.status}, not running`);
  const access = nodeAccess(node.details);
  if (!access.url) throw fail("no-endpoint", "it shows no HTTPS endpoint to this API key");
  const { protocol, publicNetwork } = await networkChain(operation, client, node.network, known);
  if (!protocol)
    throw fail(
      "unsupported",
      `the node list does not tell one protocol this package checks for its network ${node.network}`,
    );
  const { family, maxHeadAgeSeconds } = PROTOCOL_CHAINS[protocol];
  const expected = settings.expectedChainId
    ? [normalizeChainId(family, settings.expectedChainId)]
    : publicNetwork && EXPECTED_CHAIN_IDS[publicNetwork];
  if (!expected)
    throw fail("unsupported", `the chain of its network ${node.network} (${protocol}) is not known here`);
  const head = await readChainHead(family, access, settings.timeoutMs, RPC_PATHS[protocol]).catch(
    (error: unknown) => {
      throw error instanceof EndpointCheckError ? fail(error.kind, error.message) : error;
    },
  );
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
  if (headAgeSeconds > maxAge) {
    throw fail(
      "stale",
      `its head block ${head.headBlock} is ${headAgeSeconds} s old (at most ${maxAge} s accepted)`,
    );
  }
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

/** The one warning line of a healthy set: how many passed, and each node left out with why. */
function leftOutWarning(
  operation: string,
  failures: readonly Failed[],
  total: number,
  settings: VerifySettings,
) {
  const passed = total - failures.length;
  const head = `${operation}: ${passed} of ${total} nodes passed the endpoint check (verify.${settings.spell("minVerified")} ${settings.minVerified}); left out: `;
  return listed(head, failures);
}

/**
 * Checks every node's endpoint at once (the process holds at most `MAX_CHECKS_IN_FLIGHT` in
 * flight; the others queue). Without `minVerified`: each node with its `verified`, in their
 * order, or one {@link VerifyError} naming every node that failed. With it: the nodes that passed
 * ordered {@link byFreshness}, each node left out named in one warning through `settings.warn`;
 * a {@link VerifyError} when fewer than `minVerified` passed.
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
      checkNode(operation, node, settings, client, known).catch((e: unknown) => {
        if (e instanceof NodeFailure) return e;
        throw e;
      }),
    ),
  );
  const failures = nodes.flatMap((n, i) => {
    const result = results[i];
    return result instanceof NodeFailure ? [[n, result] as const] : [];
  });
  const passed = nodes.flatMap((n, i) => {
    const verified = results[i];
    return verified instanceof NodeFailure ? [] : [{ ...n, verified }];
  });
  const { minVerified, spell } = settings;
  if (minVerified === undefined) {
    if (failures.length > 0) throw new VerifyError(operation, failures, nodes.length, { spell });
    return passed;
  }
  if (passed.length < minVerified) {
    throw new VerifyError(operation, failures, nodes.length, { spell, minVerified });
  }
  if (failures.length > 0 && settings.warn) {
    const message = leftOutWarning(operation, failures, nodes.length, settings);
    // A warning that cannot be shown never fails the call.
    await Promise.resolve()
      .then(() => settings.warn!(message))
      .catch(() => undefined);
  }
  return byFreshness(passed);
}
