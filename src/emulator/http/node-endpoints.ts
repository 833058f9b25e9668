/**
 * The nodes' own endpoints, `/node/<id>/...`: a running node answers as its protocol's nodes do,
 * behind its credentials, its head advancing on the emulator's clock, unless a rehearsal says otherwise.
 */
import { createHash } from "crypto";
import { EXPECTED_CHAIN_IDS, PROTOCOL_CHAINS, RPC_PATHS, type ChainFamily } from "../../model/values";
import { isId, ownValue } from "../../model/rules";
import { DEFAULT_ENDPOINT } from "../data/admin";
import type { NodeRecord } from "../data/store";
import { JSON_TYPE, errorReply, json, notFound, type ApiContext, type ApiRequest, type Reply } from "./reply";

/** Every chain's genesis (unix seconds): block `n` is made at `GENESIS + n * blockSeconds`. */
const GENESIS = Date.UTC(2020, 0, 1) / 1000;
/** Path segments shown as they are in the record and the log; any other one (a key) is `***`. */
const SHOWN = new Set(" beacon graphql chains main blocks head header chain_id ext bc C rpc".split(" "));
const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const NEAR_VERSION = "1.39.1";
const TEZOS_PROTOCOL = "PsParisCZo7KAh1Z1smVd9ZMZ1HHn5gkzbM94V3PLCpknFWhUAi";
let HUGE: Buffer | undefined; // the 64 MiB of an `answer: "huge"` body, made once

/** A block (hashes: 64 hex digits), and what an answer knows: chain id, head, any block, the params. */
type Block = { number: number; time: number; hash: string; parent: string };
type Call = { chainId: string; head: Block; at: (n: number) => Block | undefined; params?: unknown };

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const hex = (n: number | bigint) => `0x${n.toString(16)}`;
const first = (params: unknown) => (Array.isArray(params) ? (params[0] as unknown) : undefined);
const iso = (seconds: number, fraction: string) =>
  new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, `${fraction}Z`);
const base58 = (hash: string, out = "") => {
  for (let n = BigInt(`0x${hash}`); n > 0n; n /= 58n) out = B58[Number(n % 58n)] + out;
  return out;
};
/** The answers of the rehearsals that need no chain. */
// prettier-ignore
const CANNED: Record<string, Reply> = {
  "503": { status: 503, headers: { "Content-Type": "text/plain" }, body: "Service Unavailable" },
  "not-json": { status: 200, headers: { "Content-Type": "text/html" }, body: "<!DOCTYPE html><html><body>Welcome</body></html>" },
};

/** The calls each JSON-RPC family answers; an answer may be an RpcError. */
// prettier-ignore
const RPC: Record<Exclude<ChainFamily, "tezos">, Record<string, (c: Call) => unknown>> = {
  evm: {
    eth_chainId: (c) => hex(BigInt(c.chainId)),
    net_version: (c) => c.chainId,
    eth_blockNumber: (c) => hex(c.head.number),
    eth_syncing: () => false,
    eth_getBlockByNumber: ({ params, head, at }) => {
      const tag = first(params);
      const b = at(typeof tag === "string" && /^0x[0-9a-f]+$/i.test(tag) ? parseInt(tag, 16) : tag === "earliest" ? 0 : head.number);
      return b ? { number: hex(b.number), hash: `0x${b.hash}`, parentHash: `0x${b.parent}`, timestamp: hex(b.time), transactions: [] } : null;
    },
  },
  bitcoin: {
    getblockchaininfo: ({ chainId, head, at }) => ({ chain: chainId, blocks: head.number, headers: head.number, bestblockhash: head.hash,
      time: head.time, mediantime: at(head.number - 5)?.time ?? head.time, verificationprogress: 1, initialblockdownload: false }),
    getblockcount: (c) => c.head.number,
    getbestblockhash: (c) => c.head.hash,
    getblockheader: ({ params, head, at }) => {
      const hash = String(first(params));
      const b = at(parseInt(hash.slice(52), 16));
      return b?.hash !== hash ? new RpcError(-5, "Block not found") : { hash, height: b.number, time: b.time,
        mediantime: at(b.number - 5)?.time ?? b.time, previousblockhash: b.parent, confirmations: head.number - b.number + 1 };
    },
  },
  near: {
    status: ({ chainId, head }) => ({ chain_id: chainId, version: { version: NEAR_VERSION, build: "emulated" }, sync_info: { latest_block_height: head.number,
      latest_block_hash: base58(head.hash), latest_block_time: iso(head.time, ".000000000"), syncing: false } }),
  },
  starknet: {
    starknet_chainId: (c) => `0x${Buffer.from(c.chainId, "latin1").toString("hex")}`,
    starknet_blockNumber: (c) => c.head.number,
    starknet_getBlockWithTxHashes: ({ params, head, at }) => {
      const id = (Array.isArray(params) ? params[0] : (params as { block_id?: unknown } | null)?.block_id) as { block_number?: unknown } | null;
      const b = at(typeof id?.block_number === "number" ? id.block_number : head.number);
      return !b ? new RpcError(24, "Block not found") : { status: "ACCEPTED_ON_L2", block_hash: `0x${b.hash}`, parent_hash: `0x${b.parent}`,
        block_number: b.number, timestamp: b.time, transactions: [] };
    },
  },
};

/** The REST calls (method and path after the key) Tezos nodes answer. */
// prettier-ignore
const TEZOS: Record<string, (c: Call) => unknown> = {
  "GET chains/main/chain_id": (c) => c.chainId,
  "GET chains/main/blocks/head/header": ({ chainId, head }) => ({ protocol: TEZOS_PROTOCOL, chain_id: chainId, hash: `B${base58(head.hash)}`,
    level: head.number, predecessor: `B${base58(head.parent)}`, timestamp: iso(head.time, "") }),
};

/** The record's and log's view of a node path: key and unknown segments masked; undefined for other paths. */
export function nodeRequestShape(path: string): { route: string; path: string } | undefined {
  const [, top, id, ...rest] = path.split("/");
  if (top !== "node" || id === undefined) return undefined;
  const shown = rest.map((s) => (SHOWN.has(s) ? s : "***"));
  const at = shown[0] === "beacon" ? 1 : 0;
  const route = ["/node/{id}", ...shown.filter((s, i) => i !== at || s !== "***")].join("/");
  return { route, path: ["", top, isId("node", id.toUpperCase()) ? id : "***", ...shown].join("/") };
}

/**
 * Answers a request to `/node/<id>[/beacon][/<auth_key>][/<rest>]`: 404 for an unknown node, no
 * answer (undefined: drop the connection) from a node not `running` or set to `refuse`, 401 without
 * its key in the path or its basic-auth credentials, then its rehearsed answer or its family's.
 */
export async function answerNode(
  req: Pick<ApiRequest, "method" | "path" | "headers" | "body">,
  { store, now }: Pick<ApiContext, "store" | "now">,
  sleep: (ms: number) => Promise<void>,
): Promise<Reply | undefined> {
  const [, , id, ...segments] = req.path.split("/");
  const node = store.nodes.get(id.toUpperCase());
  const network = node && store.networks.get(node.network);
  if (!node || !network) return notFound("No such node.");
  const state = store.endpoints.get(node.id) ?? DEFAULT_ENDPOINT;
  if (node.status !== "running" || state.answer === "refuse") return undefined;
  const rest = segments.filter((s) => s !== "");
  if (!authorized(node, rest, req.headers.authorization)) {
    const headers = { "WWW-Authenticate": 'Basic realm="node"' };
    return errorReply(401, "unauthorized", "Wrong or missing credentials.", { headers });
  }
  const canned = ownValue(CANNED, state.answer);
  if (canned) return canned;
  if (state.answer === "slow") await sleep(state.delayMs);
  const { family, blockSeconds } = PROTOCOL_CHAINS[network.protocol];
  const end = (state.stalledAt ?? now().getTime()) / 1000;
  const top = Math.floor((end - GENESIS) / blockSeconds);
  const hash = (n: number) =>
    sha(`${network.publicNetwork}/${n}`).slice(0, 52) + n.toString(16).padStart(12, "0");
  const at = (n: number): Block | undefined => {
    if (!Number.isSafeInteger(n) || n < 0 || n > top) return undefined;
    const time = n === top && state.stalledAt !== null ? Math.floor(end) : GENESIS + n * blockSeconds;
    return { number: n, time, hash: hash(n), parent: n > 0 ? hash(n - 1) : "0".repeat(64) };
  };
  const chainId = state.chainId ?? EXPECTED_CHAIN_IDS[network.publicNetwork][0];
  const call: Call = { chainId, head: at(top)!, at };
  const huge = state.answer === "huge";
  if (family === "tezos") {
    const answer = ownValue(TEZOS, `${req.method} ${rest.join("/")}`);
    return answer ? reply(200, answer(call), huge) : notFound();
  }
  // JSON-RPC at the endpoint itself, or at its protocol's own path (Avalanche's C-Chain).
  if (rest.join("/") !== (RPC_PATHS[network.protocol] ?? "").slice(1)) return notFound();
  if (req.method !== "POST") return errorReply(405, "method_not_allowed", "Send JSON-RPC with POST.");
  let message: unknown = new RpcError(-32700, "Parse error");
  try {
    message = JSON.parse(req.body.toString("utf8"));
  } catch {
    // answered with the parse error
  }
  const one = (m: unknown) => rpcAnswer(family, call, m);
  const batch = Array.isArray(message) && message.length > 0 ? message : undefined;
  const [status, value] = batch ? [200, batch.map((m) => one(m)[1])] : one(message);
  return reply(status, value, huge && !(message instanceof RpcError));
}

/** Whether the key is the path's first segment (after `beacon`; then removed) or basic auth is right. */
function authorized(node: NodeRecord, rest: string[], header: string | undefined): boolean {
  const { auth_key: key, auth_username: user, auth_password: password } = node.details;
  const at = rest[0] === "beacon" ? 1 : 0;
  if (key !== undefined && rest[at] === key) return rest.splice(at, 1).length === 1;
  const pair = user === undefined ? undefined : Buffer.from(`${user}:${password}`).toString("base64");
  return pair !== undefined && /^Basic\s+(\S+)\s*$/i.exec(header ?? "")?.[1] === pair;
}

/** The HTTP status and envelope of one JSON-RPC request (or its parse error), as the family's nodes answer. */
function rpcAnswer(family: Exclude<ChainFamily, "tezos">, call: Call, message: unknown) {
  const m = (message ?? {}) as Record<string, unknown>;
  const answer = ownValue(RPC[family], m.method);
  const missing = family === "evm" ? `the method ${String(m.method)} does not exist/is not available` : "";
  let outcome: unknown = message instanceof RpcError ? message : new RpcError(-32600, "Invalid Request");
  if (typeof m.method === "string") outcome = answer?.({ ...call, params: m.params });
  if (typeof m.method === "string" && !answer) outcome = new RpcError(-32601, missing || "Method not found");
  const error = outcome instanceof RpcError ? { code: outcome.code, message: outcome.message } : undefined;
  const [result, id] = [error ? null : outcome, m.id ?? null];
  if (family !== "bitcoin")
    return [200, { jsonrpc: "2.0", id, ...(error ? { error } : { result }) }] as const;
  const status = !error ? 200 : error.code === -32601 ? 404 : error.code === -32600 ? 400 : 500;
  return [status, { result, error: error ?? null, id }] as const;
}

/** A JSON reply; `big`: the same with a 64 MiB string as its `result` (made once and shared). */
function reply(status: number, value: unknown, big: boolean): Reply {
  const headers = { "Content-Type": JSON_TYPE };
  if (!big) return json(status, value, headers);
  HUGE ??= Buffer.alloc(64 * 1024 * 1024, "0");
  const envelope = typeof value === "object" && value !== null && "result" in value;
  const [head, tail] = JSON.stringify(envelope ? { ...value, result: "@@" } : "@@").split("@@");
  return { status, headers, chunks: [head, HUGE, tail] };
}
