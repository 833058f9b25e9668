/**
 * Reads a node's chain id and head at its own endpoint, the way an app calls it: the calls of its
 * protocol's family, credentials sent only to the endpoint's host (redirects are not followed),
 * TLS verified (plain `http://` only on loopback hosts), each check bounded in time and body size.
 */
import nodeFetch from "node-fetch";
import type { ChainFamily, NodeAccess } from "../model";
import { everyRequestSignal } from "./options";
import { isLoopbackHost } from "./url";

/** Largest answer read from a node: its chain id and one block header are a few KB. */
export const MAX_NODE_ANSWER_BYTES = 1024 * 1024;

/** What a node's endpoint says: its chain id (normalized), its head, and one call's round trip. */
export interface ChainHead {
  chainId: string;
  headBlock: number;
  /** The head block's time, ms since the Unix epoch. */
  headTime: number;
  latencyMs: number;
}

/** Why an endpoint could not be read; `kind` chooses the advice. The message holds no URL or credential. */
export class EndpointCheckError extends Error {
  override name = "EndpointCheckError";
  constructor(
    readonly kind: "unreachable" | "credentials" | "answer" | "unsupported",
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
  path.reduce<unknown>(
    (o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined),
    v,
  );

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

/** The ways to present the credentials, in order: the key as a path segment, then basic auth. */
function accessForms(url: URL, access: NodeAccess): { url: URL; authorization?: string }[] {
  const forms: { url: URL; authorization?: string }[] = [];
  const { key, username: user, password: pass } = access;
  if (key && !url.pathname.split("/").includes(key)) {
    forms.push({ url: new URL(`${url.pathname.replace(/\/$/, "")}/${encodeURIComponent(key)}`, url) });
  }
  const basic = user && pass ? `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}` : undefined;
  if (forms.length === 0 || basic) forms.push({ url, authorization: basic });
  return forms;
}

/**
 * The chain id and head of a node of `family`, read at `access.url` within `timeoutMs`. Throws an
 * {@link EndpointCheckError} saying what failed; an abort of every request throws its reason.
 */
export async function readChainHead(
  family: ChainFamily,
  access: NodeAccess,
  timeoutMs: number,
  rpcPath?: string,
): Promise<ChainHead> {
  let url: URL;
  try {
    url = new URL(access.url ?? "");
  } catch {
    throw new EndpointCheckError("unsupported", "its HTTPS endpoint is not a URL");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    const what = url.protocol === "http:" ? "plain http:// on a non-loopback host" : `a ${url.protocol} URL`;
    throw new EndpointCheckError("unsupported", `its HTTPS endpoint is ${what}: not checked`);
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const stop = () => controller.abort();
  everyRequestSignal.addEventListener("abort", stop, { once: true });
  const secrets = [access.key, access.username, access.password].filter((s): s is string => !!s);
  let latencyMs = -1;
  const forms = accessForms(url, access);
  // The JSON-RPC interface's own path (Avalanche's C-Chain), else the endpoint itself.
  const rpcPaths = rpcPath ? [rpcPath, undefined] : [undefined];
  // The first form and path not refused yet, shared by calls made at once.
  const at = { form: 0, path: 0 };
  const call: Call = async (method, params, path) => {
    for (let f = at.form, p = at.path; ;) {
      const form = forms[f];
      const started = performance.now();
      const target = path ?? rpcPaths[p];
      const status = await send(form, method, params, target, path !== undefined, controller.signal).catch(
        (error: unknown) => {
          everyRequestSignal.throwIfAborted();
          if (controller.signal.aborted) {
            throw new EndpointCheckError("unreachable", `no answer within ${timeoutMs / 1000} s`);
          }
          throw failure(error, secrets);
        },
      );
      if (latencyMs < 0) latencyMs = Math.round(performance.now() - started);
      if ("result" in status) return status.result;
      if (status.status === 404 && path === undefined && p + 1 < rpcPaths.length) {
        at.path = Math.max(at.path, ++p);
        continue;
      }
      if (status.refused && f + 1 < forms.length) {
        at.form = Math.max(at.form, ++f);
        continue;
      }
      throw new EndpointCheckError(
        status.refused ? "credentials" : "answer",
        cleanText(status.problem, secrets),
      );
    }
  };
  try {
    const [chain, headBlock, when] = await FAMILY_CALLS[family](call);
    const headTime = typeof when === "string" ? Date.parse(when) : when * 1000;
    if (typeof chain !== "string" || !Number.isSafeInteger(headBlock) || !Number.isFinite(headTime)) {
      throw new EndpointCheckError(
        "answer",
        `its answers lack the chain id or the head block that ${family} calls give`,
      );
    }
    return { chainId: normalizeChainId(family, chain), headBlock, headTime, latencyMs };
  } finally {
    clearTimeout(timer);
    everyRequestSignal.removeEventListener("abort", stop);
  }
}

type Outcome = { result: unknown } | { status: number; refused: boolean; problem: string };

/** One call: JSON-RPC 2.0 as a POST (to `path` under the endpoint), or a REST `GET` of `path`; the body read within its cap. */
async function send(
  form: { url: URL; authorization?: string },
  method: string,
  params: unknown,
  path: string | undefined,
  rest: boolean,
  signal: AbortSignal,
): Promise<Outcome> {
  const target = path ? new URL(`${form.url.pathname.replace(/\/$/, "")}${path}`, form.url) : form.url;
  const headers: Record<string, string> = {
    Accept: "application/json",
    "User-Agent": "pulumi-blockchain-nodes",
  };
  if (form.authorization) headers.Authorization = form.authorization;
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
  const bad = (problem: string, refused = false): Outcome => ({ status: res.status, refused, problem });
  if (res.status >= 300 && res.status < 400) {
    return bad(
      `it answered a redirect (HTTP ${res.status}), not followed: credentials go only to its own host`,
    );
  }
  if (res.status === 401 || res.status === 403)
    return bad(`its credentials were refused (HTTP ${res.status})`, true);
  if (res.status === 404 && form.authorization === undefined) {
    return bad("its endpoint's path is unknown to it (HTTP 404): a key it no longer accepts?", true);
  }
  let json: unknown;
  try {
    json = JSON.parse(await res.text());
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const type = res.headers.get("content-type")?.split(";")[0] || "no content type";
    return bad(`it answered HTTP ${res.status} with something that is not JSON (${type})`);
  }
  if (rest && res.ok) return { result: json };
  const error = field(json, "error");
  if (!rest && error) {
    return bad(
      `it answered ${method} with error ${show(field(error, "code"))}: ${show(field(error, "message"))}`,
    );
  }
  if (!res.ok) return bad(`it answered HTTP ${res.status}`);
  if (!json || typeof json !== "object" || !("result" in json)) {
    return bad(`it answered ${method} with JSON that is not a JSON-RPC answer`);
  }
  return { result: json.result };
}

/** A value of an answer, short, for a message. */
function show(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** `text` with each credential and anything URL-like replaced by `***`. */
function cleanText(text: string, secrets: readonly string[]): string {
  let out = text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, "***");
  for (const s of secrets) out = out.split(s).join("***");
  return out;
}

/** A failed connection, described without its URL. */
function failure(error: unknown, secrets: readonly string[]): EndpointCheckError {
  const e = error as { type?: unknown; code?: unknown; message?: unknown };
  if (e?.type === "max-size") {
    return new EndpointCheckError(
      "answer",
      `its answer passed the ${MAX_NODE_ANSWER_BYTES} bytes read at most`,
    );
  }
  const code = typeof e?.code === "string" ? e.code : undefined;
  const reason = code ?? String(e?.message ?? error).replace(/^.*?reason: /, "");
  return new EndpointCheckError("unreachable", `it could not be reached (${cleanText(reason, secrets)})`);
}

/**
 * A chain id as the table writes it: an EVM id in decimal (`0x89` → `137`), a Starknet id as its
 * short string when it is one (`0x534e5f4d41494e` → `SN_MAIN`), others as sent.
 */
export function normalizeChainId(family: ChainFamily, raw: string): string {
  const text = raw.trim();
  if (family === "evm" && /^(?:0x[0-9a-f]+|[0-9]+)$/i.test(text)) return BigInt(text).toString();
  if (family === "starknet" && /^0x(?:[0-9a-f]{2})+$/i.test(text)) {
    const ascii = Buffer.from(text.slice(2), "hex").toString("latin1");
    if (/^[\x21-\x7e]+$/.test(ascii)) return ascii;
  }
  return text;
}
