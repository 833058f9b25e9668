/**
 * `verify` of the node functions: each node's own endpoint called as an app would, its chain and
 * head checked, before its endpoint is handed on. Pulumi-free, shared by both hosts.
 */
import { EndpointCheckError, invalidInput, normalizeChainId, readChainHead } from "../api";
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

/** What `verify` checks beyond its defaults; `verify: true` (or `{}`) takes every default. */
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
}

/** Default of {@link VerifyOptions.timeoutSeconds}. */
export const DEFAULT_VERIFY_TIMEOUT_SECONDS = 10;
/** Most endpoint checks in flight at once. */
export const MAX_CHECKS_IN_FLIGHT = 8;

/** A node as looked up, with its check's result when `verify` was asked for. */
export type CheckedNode = Node & { verified?: VerifiedEndpoint };

interface VerifySettings {
  maxHeadAgeSeconds?: number;
  timeoutMs: number;
  expectedChainId?: string;
}

const LIMITS = { maxHeadAgeSeconds: [1, 31_536_000], timeoutSeconds: [0.1, 300] } as const;

/** Checks a `verify` argument completely before any request: `undefined` when no check is asked for. */
export function checkVerify(operation: string, verify: unknown): VerifySettings | undefined {
  if (verify === undefined || verify === false) return undefined;
  const shape = "expected true or { maxHeadAgeSeconds?, timeoutSeconds?, expectedChainId? }";
  const record = verify === true ? {} : (verify as Record<string, unknown>);
  const problems: Problem[] =
    typeof record === "object" && record !== null && !Array.isArray(record)
      ? Object.keys(record)
          .filter((k) => !["expectedChainId", ...Object.keys(LIMITS)].includes(k))
          .map((k) => ({ field: `verify.${k}`, value: show(record[k]), allowed: `unknown field; ${shape}` }))
      : [{ field: "verify", value: show(verify), allowed: shape }];
  const get = (k: string) => (problems.length === 0 && Object.hasOwn(record, k) ? record[k] : undefined);
  for (const [name, [min, max]] of Object.entries(LIMITS)) {
    const value = get(name);
    if (value !== undefined && !(typeof value === "number" && value >= min && value <= max)) {
      problems.push({
        field: `verify.${name}`,
        value: show(value),
        allowed: `expected a number from ${min} to ${max}`,
      });
    }
  }
  const expected = get("expectedChainId");
  if (expected !== undefined && !(typeof expected === "string" && /^[\w.:-]{1,100}$/.test(expected))) {
    problems.push({
      field: "verify.expectedChainId",
      value: show(expected),
      allowed: "expected a chain id, e.g. 1 or SN_MAIN",
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
  };
}

type FailureKind = EndpointCheckError["kind"] | "not-running" | "no-endpoint" | "wrong-chain" | "stale";

/** What to do about each kind of failure. */
const ADVICE: Record<FailureKind, string> = {
  "not-running": 'Only a running node answers: add waitFor: { status: "running" } to wait for it.',
  "no-endpoint": "Endpoints are shown only to the node's owner: use an API key of the node's organization.",
  unreachable:
    "Check that the node is up and reachable from here; raise verify.timeoutSeconds if it is only slow.",
  credentials:
    "The endpoint refused the credentials the service gives for it: if they were just rotated, run again; otherwise check the node's access rules in the service's console.",
  answer: "The endpoint does not answer as a node of its protocol: check the node in the service's console.",
  unsupported: "Pass verify.expectedChainId, or leave this node out of verify.",
  "wrong-chain":
    "Point the app at a node of the right network, or pass verify.expectedChainId if this chain is intended.",
  stale:
    "The node is behind its chain: check it in the service's console, or raise verify.maxHeadAgeSeconds if this age is expected.",
};

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

/**
 * The endpoint checks that failed, one message naming each node, what failed and what to do;
 * `lasting`: no wait can mend them.
 */
export class VerifyError extends Error {
  override name = "VerifyError";
  readonly lasting: boolean;
  constructor(operation: string, failures: ReadonlyArray<[Node, NodeFailure]>, total: number) {
    const listed = failures.slice(0, 10).map(([n, f]) => `${n.id}: ${f.message}`);
    if (failures.length > 10) listed.push(`and ${failures.length - 10} more`);
    const kinds = [...new Set(failures.map(([, f]) => f.kind))];
    const head =
      total === 1
        ? `${failures[0][0].id} failed its endpoint check: ${failures[0][1].message}`
        : `${failures.length} of ${total} nodes failed their endpoint check: ${listed.join("; ")}`;
    super(`${operation}: ${head}. ${kinds.map((k) => ADVICE[k]).join(" ")}`);
    this.lasting = kinds.every((k) => LASTING.includes(k));
  }
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
    const wanted = `${settings.expectedChainId ? "verify.expectedChainId says" : `${publicNetwork} is`} ${expected.join(" or ")}`;
    throw fail("wrong-chain", `wrong chain: it serves ${head.chainId}, ${wanted}`);
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
 * Checks every node's endpoint, {@link MAX_CHECKS_IN_FLIGHT} at a time: each node with its
 * `verified`, or one {@link VerifyError} naming every node that failed.
 */
export async function verifyNodes(
  operation: string,
  nodes: readonly Node[],
  settings: VerifySettings,
  client: NodeServiceClient,
  known: Known = {},
): Promise<CheckedNode[]> {
  const results: Array<VerifiedEndpoint | NodeFailure> = [];
  let next = 0;
  const worker = async () => {
    while (next < nodes.length) {
      const i = next++;
      results[i] = await checkNode(operation, nodes[i], settings, client, known).catch((e: unknown) => {
        if (e instanceof NodeFailure) return e;
        throw e;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(MAX_CHECKS_IN_FLIGHT, nodes.length) }, worker));
  const failures = nodes.flatMap((n, i) =>
    results[i] instanceof NodeFailure ? [[n, results[i]] as [Node, NodeFailure]] : [],
  );
  if (failures.length > 0) throw new VerifyError(operation, failures, nodes.length);
  return nodes.map((n, i) => ({ ...n, verified: results[i] as VerifiedEndpoint }));
}
