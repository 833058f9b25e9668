/**
 * A node's chain id and head, read at its endpoint as an app calls it. Credentials go only to the exact origin the
 * service listed (no redirect, TLS verified, `http://` only on loopback); a node's answers reach messages capped and
 * cleaned; each check bounded in time and size, 8 at most in flight (test/pure/node-check.property.test.ts).
 */
import nodeFetch from "node-fetch";
import { parse as parseLikeNodeFetch } from "url";
import type { ChainFamily } from "../model/values";
import type { NodeAccess } from "../model/node-fields";
import { everyRequestSignal } from "./options";
import { isLoopbackHost } from "./url";

/** Largest answer read from a node: its chain id and one block header are a few KB. */
const MAX_NODE_ANSWER_BYTES = 1024 * 1024;
/** Most endpoint checks in flight at once in the process, whatever the number of calls or invokes. */
export const MAX_CHECKS_IN_FLIGHT = 8;
/** Longest text from a node quoted in a message, in characters. */
export const MAX_QUOTE_CHARS = 120;

/** What a node's endpoint says: its chain id (normalized), its head, and one call's round trip. */
export interface ChainHead {
  chainId: string;
  headBlock: number;
  /** The head block's time, ms since the Unix epoch. */
  headTime: number;
  latencyMs: number;
}

/** What failed in a node's check: the node itself, its endpoint's answers, or its chain. */
// prettier-ignore
export type CheckFailureKind = "not-running" | "no-endpoint" | "unreachable" | "credentials" | "answer" | "unsupported" | "wrong-chain" | "stale";

/** Why a node's endpoint check failed; `kind` chooses the advice. The message holds no URL or credential. */
export class EndpointCheckError extends Error {
  override name = "EndpointCheckError";
  constructor(
    readonly kind: CheckFailureKind,
    message: string,
  ) {
    super(message);
  }
}

type Call = (method: string, params: unknown, path?: string) => Promise<unknown>;

const hex = (v: unknown) => (typeof v === "string" && /^0x[0-9a-f]+$/i.test(v) ? Number(v) : NaN);
const num = (v: unknown) => (typeof v === "number" ? v : NaN);
const str = (v: unknown) => (typeof v === "string" ? v : "");
const field = (v: unknown, ...path: string[]): unknown =>
  path.reduce((o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined), v);

/** Per family: the chain id, the head's number and time (seconds or an ISO date), from its own calls. */
const FAMILY_CALLS: Record<ChainFamily, (call: Call) => Promise<[unknown, number, number | string]>> = {
  async evm(call) {
    const [chain, block] = await Promise.all([
      call("eth_chainId", []),
      call("eth_getBlockByNumber", ["latest", false]),
    ]);
    return [chain, hex(field(block, "number")), hex(field(block, "timestamp"))];
  },
  async bitcoin(call) {
    const info = await call("getblockchaininfo", []);
    // The tip's `time` since Bitcoin Core 23; before, its header has it.
    if (field(info, "time") !== undefined)
      return [field(info, "chain"), num(field(info, "blocks")), num(field(info, "time"))];
    const header = await call("getblockheader", [str(field(info, "bestblockhash"))]);
    return [field(info, "chain"), num(field(header, "height")), num(field(header, "time"))];
  },
  async near(call) {
    const status = await call("status", []);
    const sync = field(status, "sync_info");
    return [
      field(status, "chain_id"),
      num(field(sync, "latest_block_height")),
      str(field(sync, "latest_block_time")),
    ];
  },
  async starknet(call) {
    const [chain, block] = await Promise.all([
      call("starknet_chainId", []),
      call("starknet_getBlockWithTxHashes", { block_id: "latest" }),
    ]);
    return [chain, num(field(block, "block_number")), num(field(block, "timestamp"))];
  },
  async tezos(call) {
    const [chain, header] = await Promise.all([
      call("GET", undefined, "/chains/main/chain_id"),
      call("GET", undefined, "/chains/main/blocks/head/header"),
    ]);
    return [chain, num(field(header, "level")), str(field(header, "timestamp"))];
  },
};

/** The ways to present the credentials, in order: the key as a path segment, then basic auth (a header). */
function accessForms(listed: URL, access: NodeAccess) {
  const forms: { pathname: string; authorization?: string }[] = [];
  const { key, username: user, password: pass } = access;
  const segments = listed.pathname.split("/");
  if (key && !segments.includes(key) && !segments.includes(encodeURIComponent(key)))
    forms.push({ pathname: `${listed.pathname.replace(/\/$/, "")}/${encodeURIComponent(key)}` });
  const basic = user && pass ? `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}` : undefined;
  if (forms.length === 0 || basic) forms.push({ pathname: listed.pathname, authorization: basic });
  return forms;
}

/**
 * A copy of `listed` with only its path set; an {@link EndpointCheckError} (nothing sent) unless both the
 * URL standard and node-fetch, which reads it again with Node's legacy parser, connect it to `listed`'s
 * exact origin: they disagree on some hosts, e.g. `a.example;b.example`.
 */
function requestTarget(listed: URL, pathname: string): URL {
  const target = new URL(listed.href);
  target.pathname = pathname;
  let legacy: string | undefined;
  try {
    const { protocol, host } = parseLikeNodeFetch(target.href);
    legacy = `${protocol}//${host}`;
  } catch {
    // refused by node-fetch's parser: not sent
  }
  if (target.origin !== listed.origin || legacy !== listed.origin)
    throw new EndpointCheckError("unsupported", "its HTTPS endpoint names its host ambiguously: not checked");
  return target;
}

let checksInFlight = 0;
const waiting: Array<() => void> = [];

/** A check slot, when free (first come, first served); its release hands it on. An abort of every request ends the wait. */
function checkSlot(): Promise<() => void> {
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else checksInFlight--;
  };
  everyRequestSignal.throwIfAborted();
  if (checksInFlight < MAX_CHECKS_IN_FLIGHT) {
    checksInFlight++;
    return Promise.resolve(release);
  }
  return new Promise((resolve, reject) => {
    const leave = () => {
      waiting.splice(waiting.indexOf(start), 1);
      reject(everyRequestSignal.reason);
    };
    const start = () => {
      everyRequestSignal.removeEventListener("abort", leave);
      resolve(release);
    };
    waiting.push(start);
    everyRequestSignal.addEventListener("abort", leave, { once: true });
  });
}

/**
 * The chain id and head of a node of `family`, read at `access.url`; `timeoutMs` counts from when this
 * check gets its slot. Throws an {@link EndpointCheckError} saying what failed, or the reason of an abort.
 */
export async function readChainHead(
  family: ChainFamily,
  access: NodeAccess,
  timeoutMs: number,
  rpcPath?: string,
): Promise<ChainHead> {
  let listed: URL;
  try {
    listed = new URL(access.url ?? "");
  } catch {
    throw new EndpointCheckError("unsupported", "its HTTPS endpoint is not a URL");
  }
  const scheme = listed.protocol;
  if (scheme !== "https:" && !(scheme === "http:" && isLoopbackHost(listed.hostname))) {
    const what = scheme === "http:" ? "plain http:// on a non-loopback host" : "not an https:// URL";
    throw new EndpointCheckError("unsupported", `its HTTPS endpoint is ${what}: not checked`);
  }
  const release = await checkSlot();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const stop = () => controller.abort();
  everyRequestSignal.addEventListener("abort", stop, { once: true });
  const quote = (text: string) => quoteFromNode(text, access);
  let latencyMs = -1;
  // Each credential form with each path: the JSON-RPC interface's own (Avalanche's C-Chain), then the endpoint.
  const paths = rpcPath ? [rpcPath, ""] : [""];
  const attempts = accessForms(listed, access).flatMap((form) => paths.map((rpc) => ({ ...form, rpc })));
  // The first attempt not refused yet, and the last refusal, shared by calls made at once.
  const state: { at: number; refused?: string } = { at: 0 };
  const call: Call = async (method, params, path) => {
    for (let a = state.at; ; a++) {
      const { pathname, rpc, authorization } = attempts[a];
      const started = performance.now();
      const outcome = await send(
        requestTarget(listed, join(pathname, path ?? rpc)),
        authorization,
        { method, params, rest: path !== undefined, quote },
        controller.signal,
      ).catch((error: unknown) => {
        everyRequestSignal.throwIfAborted();
        if (controller.signal.aborted)
          throw new EndpointCheckError("unreachable", `no answer within ${timeoutMs / 1000} s`);
        throw failure(error, quote);
      });
      if (latencyMs < 0) latencyMs = Math.round(performance.now() - started);
      if ("result" in outcome) return outcome.result;
      const refused = outcome.status === 401 || outcome.status === 403;
      if (refused) state.refused = outcome.problem;
      if (!refused && outcome.status !== 404) throw new EndpointCheckError("answer", outcome.problem);
      if (a + 1 < attempts.length) {
        state.at = Math.max(state.at, a + 1);
        continue;
      }
      throw new EndpointCheckError(
        state.refused ? "credentials" : "answer",
        state.refused ?? outcome.problem,
      );
    }
  };
  try {
    const [chain, headBlock, when] = await FAMILY_CALLS[family](call);
    const headTime = typeof when === "string" ? Date.parse(when) : when * 1000;
    if (typeof chain !== "string" || !Number.isSafeInteger(headBlock) || !Number.isFinite(headTime))
      throw new EndpointCheckError(
        "answer",
        `its answers lack the chain id or the head block that ${family} calls give`,
      );
    return { chainId: normalizeChainId(family, chain), headBlock, headTime, latencyMs };
  } finally {
    // A call still in flight when another failed ends here too: nothing is sent after the check.
    controller.abort();
    clearTimeout(timer);
    everyRequestSignal.removeEventListener("abort", stop);
    release();
  }
}

/** `pathname` with `path` (a JSON-RPC path or a REST call) under it. */
const join = (pathname: string, path: string) => (path ? `${pathname.replace(/\/$/, "")}${path}` : pathname);

type Outcome = { result: unknown } | { status: number; problem: string };
type Request = { method: string; params: unknown; rest: boolean; quote: (text: string) => string };

/** One call to `target`: JSON-RPC 2.0 as a POST, or a REST `GET`; the body read within its cap. */
async function send(
  target: URL,
  authorization: string | undefined,
  { method, params, rest, quote }: Request,
  signal: AbortSignal,
): Promise<Outcome> {
  const headers: Record<string, string> = {
    Accept: "application/json",
    "User-Agent": "pulumi-blockchain-nodes",
  };
  if (authorization) headers.Authorization = authorization;
  if (!rest) headers["Content-Type"] = "application/json";
  const body = rest ? undefined : JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
  const res = await nodeFetch(target.href, {
    method: rest ? "GET" : "POST",
    headers,
    body,
    redirect: "manual",
    size: MAX_NODE_ANSWER_BYTES,
    signal: signal as never,
  });
  const bad = (problem: string): Outcome => ({ status: res.status, problem });
  if (res.status >= 300 && res.status < 400)
    return bad(
      `it answered a redirect (HTTP ${res.status}), not followed: credentials go only to its own host`,
    );
  if (res.status === 401 || res.status === 403)
    return bad(`its credentials were refused (HTTP ${res.status})`);
  if (res.status === 404) return bad("its endpoint's path is unknown to it (HTTP 404)");
  let json: unknown;
  try {
    json = JSON.parse(await res.text());
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const type = quote(res.headers.get("content-type")?.split(";")[0] || "no content type");
    return bad(`it answered HTTP ${res.status} with something that is not JSON (${type})`);
  }
  if (rest && res.ok) return { result: json };
  const error = field(json, "error");
  if (!rest && error) {
    const said = `${show(field(error, "code"))}: ${show(field(error, "message"))}`;
    return bad(`it answered ${method} with error ${quote(said)}`);
  }
  if (!res.ok) return bad(`it answered HTTP ${res.status}`);
  if (!json || typeof json !== "object" || !("result" in json))
    return bad(`it answered ${method} with JSON that is not a JSON-RPC answer`);
  return { result: json.result };
}

/** A value of an answer as text, whatever its size or depth: a string as it is, others by kind. */
function show(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value !== "object" || value === null) return String(value);
  return Array.isArray(value) ? "[…]" : "{…}";
}

/** A failed connection, described without its URL. */
function failure(error: unknown, quote: (text: string) => string): EndpointCheckError {
  const e = error as { type?: unknown; code?: unknown; message?: unknown };
  const max = MAX_NODE_ANSWER_BYTES;
  if (e?.type === "max-size")
    return new EndpointCheckError("answer", `its answer passed the ${max} bytes read at most`);
  const code = typeof e?.code === "string" ? e.code : undefined;
  const reason = code ?? String(e?.message ?? error).replace(/^.*?reason: /, "");
  return new EndpointCheckError("unreachable", `it could not be reached (${quote(reason)})`);
}

const TOKEN_END = /[\s"'`,;()[\]{}<>]/;

/** `text` with each token that holds `part` replaced by `***` whole; linear in `text`. */
function maskTokens(text: string, part: string): string {
  let out = "";
  let done = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, done)) {
    let start = at;
    while (start > done && !TOKEN_END.test(text[start - 1])) start--;
    let end = at + part.length;
    while (end < text.length && !TOKEN_END.test(text[end])) end++;
    out += start === done && out.endsWith("***") ? "" : `${text.slice(done, start)}***`;
    done = end;
  }
  return out + text.slice(done);
}

/**
 * Text a node answered, fit to quote in a message: each token (up to whitespace, quotes, brackets, commas,
 * semicolons) holding a credential of `access` (also URL-encoded, or as basic auth), its host or `://`
 * replaced whole by `***`; control characters as spaces; at most {@link MAX_QUOTE_CHARS}; linear time.
 */
export function quoteFromNode(text: string, access: NodeAccess): string {
  const { key, username: user, password: pass } = access;
  let host: string | undefined;
  try {
    host = new URL(access.url ?? "").hostname;
  } catch {
    host = undefined;
  }
  const basic = user && pass ? Buffer.from(`${user}:${pass}`).toString("base64") : undefined;
  const hidden = [key, key && encodeURIComponent(key), user, pass, basic, host, "://"];
  // Control characters and runs of spaces become one space first, in the credentials too.
  const plain = (t: string) => t.replace(/[\p{C}\s]+/gu, " ");
  const clean = hidden
    .reduce<string>((out, part) => (part ? maskTokens(out, plain(part)) : out), plain(text))
    .trim();
  if (clean.length <= MAX_QUOTE_CHARS) return clean;
  return `${clean.slice(0, MAX_QUOTE_CHARS - 1).replace(/[\uD800-\uDBFF]$/, "")}…`;
}

/**
 * A chain id as the table writes it: an EVM id of at most 256 bits in decimal (`0x89` → `137`), a Starknet id as its
 * short string when it is one (`0x534e5f4d41494e` → `SN_MAIN`), others as sent.
 */
export function normalizeChainId(family: ChainFamily, raw: string): string {
  const text = raw.trim();
  if (family === "evm" && /^(?:0x[0-9a-f]{1,64}|[0-9]{1,78})$/i.test(text)) return BigInt(text).toString();
  if (family === "starknet" && /^0x(?:[0-9a-f]{2})+$/i.test(text)) {
    const ascii = Buffer.from(text.slice(2), "hex").toString("latin1");
    if (/^[\x21-\x7e]+$/.test(ascii)) return ascii;
  }
  return text;
}
