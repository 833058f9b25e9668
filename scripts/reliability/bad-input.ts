/**
 * Section 3: bad input. A generated corpus of invalid inputs (a seeded generator plus fast-check
 * samples) fed to the client constructor, the client's methods, and the providers' check and
 * create. Every one must be refused with a typed error before anything is sent: the client's
 * `InvalidInputError`, or, for a provider given no API URL or key or one that is not a string,
 * the package's `SettingsError` (both typed and documented).
 */
import fc from "fast-check";
import nodeFetch from "node-fetch";
import { ApiError, NodeServiceClient, type FetchLike } from "../../src/api";
import { startEmulator, type RunningEmulator } from "../../src/emulator";
import { PROTOCOLS, SHARED_PROTOCOLS, checkAddress, isId, toChecksumAddress } from "../../src/model";
import { checkFaucetDrip, createFaucetDrip } from "../../src/provider/faucet-drip";
import { checkNetwork, createNetwork } from "../../src/provider/network";
import {
  Goal,
  Rng,
  addEmulatorSecrets,
  addSecret,
  deriveSeed,
  isEngineError,
  keep,
  sayProblems,
  seconds,
  TYPED_ERROR_NAMES,
  settle,
  table,
  tick,
  unhandled,
  zeroGoal,
} from "./common";

const SECTION = "3 bad input";

/** A bad value and a description of it that never shows the value (it may be a key). */
interface Bad {
  label: string;
  value: unknown;
}

type Target =
  | "new NodeServiceClient"
  | "getNode"
  | "readNetwork"
  | "updateNetwork"
  | "deleteNetwork"
  | "listNodes"
  | "listAllNodes"
  | "requestTestTokens"
  | "checkNetwork"
  | "checkFaucetDrip"
  | "createNetwork"
  | "createFaucetDrip";

interface Case {
  target: Target;
  label: string;
  run: () => unknown;
}

const HUGE = 5_000_000;

function nonStrings(): Bad[] {
  const nullProto = Object.create(null) as object;
  return [
    { label: "number 42", value: 42 },
    { label: "number 0", value: 0 },
    { label: "number -1", value: -1 },
    { label: "NaN", value: NaN },
    { label: "Infinity", value: Infinity },
    { label: "-Infinity", value: -Infinity },
    { label: "null", value: null },
    { label: "undefined", value: undefined },
    { label: "true", value: true },
    { label: "empty object", value: {} },
    { label: "empty array", value: [] },
    { label: "array holding a valid-looking value", value: ["NW-100-000-1"] },
    { label: "object with toString", value: { toString: () => "NW-100-000-1" } },
    { label: "String object", value: new String("NW-100-000-1") },
    { label: "symbol", value: Symbol("NW-100-000-1") },
    { label: "bigint", value: 10n },
    { label: "function", value: () => "NW-100-000-1" },
    { label: "null-prototype object", value: nullProto },
    { label: "Date", value: new Date(0) },
    { label: "Buffer", value: Buffer.from("NW-100-000-1") },
    { label: "own __proto__ key (JSON.parse)", value: JSON.parse('{"__proto__": {"id": "NW-100-000-1"}}') },
  ];
}

/** Bad identifiers for a prefix (`NW` or `ND`), with keys and credentials in id positions. */
function badIds(
  prefix: "NW" | "ND",
  e: RunningEmulator,
  secret: { endpoint: string; password: string },
): Bad[] {
  const p = prefix;
  const other = p === "NW" ? "ND-100-000-001" : "NW-100-000-1";
  const strings: Bad[] = [
    { label: "empty string", value: "" },
    { label: "space", value: " " },
    { label: "prefix only", value: p },
    { label: "prefix and dash", value: `${p}-` },
    { label: "trailing dash", value: `${p}-1-` },
    { label: "leading dash", value: `-${p}-1` },
    { label: "lower case", value: `${p.toLowerCase()}-100-000-1` },
    { label: "underscores", value: `${p}_100_000_1` },
    { label: "trailing space", value: `${p}-100-000-1 ` },
    { label: "leading space", value: ` ${p}-100-000-1` },
    { label: "trailing newline", value: `${p}-100-000-1\n` },
    { label: "path traversal", value: `${p}-1/../nodes` },
    { label: "deep path traversal with query", value: `${p}-1/../../v1/nodes/?x=1` },
    { label: "query", value: `${p}-1?page=2` },
    { label: "fragment", value: `${p}-1#frag` },
    { label: "encoded slash", value: `${p}-1%2F..` },
    { label: "dot dot", value: ".." },
    { label: "slash", value: "/" },
    { label: "full-width digits", value: `${p}-１２３` },
    { label: "Arabic-Indic digits", value: `${p}-١٢٣` },
    { label: "13-digit group", value: `${p}-1234567890123` },
    { label: "7 groups", value: `${p}-1-2-3-4-5-6-7` },
    { label: "NUL character", value: `${p}-1\u0000` },
    { label: "CRLF header injection", value: `${p}-1\r\nX-Injected: 1` },
    { label: "SQL-ish", value: `${p}-1 OR 1=1` },
    { label: "emoji", value: `${p}-💥` },
    { label: "id of another kind", value: other },
    { label: "project id", value: "PR-100-001" },
    { label: "organization id", value: "RG-100-001" },
    { label: "the API key in the id position", value: e.apiKey },
    { label: "Bearer and the API key", value: `Bearer ${e.apiKey}` },
    { label: "the admin key in the id position", value: e.adminKey },
    { label: "an endpoint URL in the id position", value: secret.endpoint },
    { label: "an auth password in the id position", value: secret.password },
    { label: "prefix and the API key", value: `${p}-${e.apiKey}` },
    { label: "1 MB of digit groups", value: `${p}-${"1-".repeat(500_000)}1` },
    { label: "5 MB string", value: `${p}-${"1".repeat(HUGE)}` },
    { label: "constructor", value: "constructor" },
    { label: "__proto__", value: "__proto__" },
    { label: "toString", value: "toString" },
    { label: "hasOwnProperty", value: "hasOwnProperty" },
    { label: "prototype", value: "prototype" },
    { label: "'NaN'", value: "NaN" },
    { label: "'undefined'", value: "undefined" },
    { label: "'null'", value: "null" },
  ];
  return [...strings, ...nonStrings()];
}

/** Random strings and values from fast-check, minus any that happen to be valid. */
function randomBad(seed: number, valid: (v: unknown) => boolean, count: number): Bad[] {
  const arb = fc.oneof(
    fc.string({ maxLength: 24 }),
    fc.string({ unit: "binary", maxLength: 16 }),
    fc.stringMatching(/^(NW|ND|nw|PR)-[0-9a-z]{0,4}(-[0-9]{0,14}){0,8}[ /?#.]?$/),
    fc.anything({ maxDepth: 2 }),
  );
  return fc
    .sample(arb, { seed, numRuns: count * 2 })
    .filter((v) => !valid(v))
    .slice(0, count)
    .map((value, i) => ({ label: `fast-check sample #${i} (${typeof value})`, value }));
}

function badAddresses(rng: Rng, e: RunningEmulator): Bad[] {
  const lower = `0x${rng.hex(40)}`;
  // Upper case but for one letter: mixed case, so the checksum applies (and fails).
  const upper = `0x${rng.hex(40).toUpperCase()}`;
  const letter = [...upper].findIndex((c, i) => i > 1 && /[A-F]/.test(c));
  const upperButOne: Bad[] = [];
  if (letter > 0) {
    const value = upper.slice(0, letter) + upper[letter].toLowerCase() + upper.slice(letter + 1);
    if (checkAddress("a", value))
      upperButOne.push({ label: "upper case but one letter, checksum fails", value });
  }
  const flipped: Bad[] = [];
  for (let k = 0; k < 4; k++) {
    const base = toChecksumAddress(`0x${rng.hex(40)}`);
    const letters = [...base].map((c, i) => (i > 1 && /[a-fA-F]/.test(c) ? i : -1)).filter((i) => i > 0);
    if (letters.length === 0) continue;
    const i = rng.pick(letters);
    const c = base[i];
    const bad =
      base.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + base.slice(i + 1);
    if (checkAddress("a", bad))
      flipped.push({ label: `EIP-55 checksum broken (one letter's case flipped) #${k}`, value: bad });
  }
  return [
    { label: "empty string", value: "" },
    { label: "0x only", value: "0x" },
    { label: "short", value: "0x123" },
    { label: "39 hex digits", value: lower.slice(0, 41) },
    { label: "41 hex digits", value: `${lower}a` },
    { label: "no 0x prefix", value: lower.slice(2) },
    { label: "0X prefix", value: `0X${lower.slice(2)}` },
    { label: "non-hex digits", value: `0x${"g".repeat(40)}` },
    { label: "leading space", value: ` ${lower}` },
    { label: "trailing newline", value: `${lower}\n` },
    { label: "inner space", value: `${lower.slice(0, 20)} ${lower.slice(20)}` },
    { label: "full-width digits", value: `0x${"１".repeat(40)}` },
    { label: "ENS name", value: "vitalik.eth" },
    ...upperButOne,
    ...flipped,
    { label: "the API key in the address position", value: e.apiKey },
    { label: "Bearer and the API key", value: `Bearer ${e.apiKey}` },
    { label: "1 MB of hex", value: `0x${"a".repeat(1_000_000)}` },
    { label: "constructor", value: "constructor" },
    { label: "__proto__", value: "__proto__" },
    ...nonStrings(),
  ];
}

function badFilters(e: RunningEmulator): Bad[] {
  const dedicatedOnly = PROTOCOLS.find((p) => !(SHARED_PROTOCOLS as readonly string[]).includes(p))!;
  return [
    { label: "unknown key protocl", value: { protocl: "ethereum" } },
    { label: "unknown key regions", value: { regions: "us-east-1" } },
    { label: "snake-case order_by", value: { order_by: "name" } },
    { label: "snake-case public_network", value: { public_network: "ethereum-mainnet" } },
    { label: "capitalized Protocol", value: { Protocol: "ethereum" } },
    { label: "unknown key with a valid one", value: { protocol: "ethereum", foo: 1 } },
    { label: "own __proto__ key", value: JSON.parse('{"__proto__": {"protocol": "ethereum"}}') },
    { label: "constructor key", value: { constructor: "x" } },
    { label: "toString key", value: { toString: "x" } },
    { label: "hasOwnProperty key", value: { hasOwnProperty: 1 } },
    { label: "valueOf key", value: { valueOf: 2 } },
    { label: "protocol a number", value: { protocol: 5 } },
    { label: "protocol capitalized value", value: { protocol: "Ethereum" } },
    { label: "protocol NaN", value: { protocol: NaN } },
    { label: "protocol a symbol", value: { protocol: Symbol("ethereum") } },
    { label: "protocol a bigint", value: { protocol: 10n } },
    { label: "archive as a string", value: { archive: "true" } },
    { label: "archive as 1", value: { archive: 1 } },
    { label: "archive NaN", value: { archive: NaN } },
    { label: "network not an id", value: { network: "NW-x" } },
    { label: "network: the API key", value: { network: e.apiKey } },
    { label: "network: path traversal", value: { network: "NW-1/../x" } },
    { label: "project a number", value: { project: 12 } },
    { label: "project with a query", value: { project: "PR-1?x=1" } },
    { label: "organization: node id", value: { organization: "ND-1-2-3" } },
    { label: "orderBy unknown", value: { orderBy: "random" } },
    { label: "orderBy dash only", value: { orderBy: "-" } },
    { label: "orderBy an object", value: { orderBy: {} } },
    { label: "name empty", value: { name: "" } },
    { label: "name a number", value: { name: 12 } },
    { label: "status upper case", value: { status: "RUNNING" } },
    { label: "status an array", value: { status: ["running"] } },
    { label: "region unknown", value: { region: "mars-1" } },
    { label: "region of another provider", value: { provider: "aws", region: "asia-southeast1" } },
    {
      label: "public network of another protocol",
      value: { protocol: "solana", publicNetwork: "ethereum-mainnet" },
    },
    {
      label: "shared nodes of a dedicated-only protocol",
      value: { type: "shared", protocol: dedicatedOnly },
    },
    { label: "type unknown", value: { type: "cheap" } },
    { label: "role unknown", value: { role: "validator" } },
    { label: "projectType unknown", value: { projectType: "private" } },
    { label: "filters a string", value: "ethereum" },
    { label: "filters a number", value: 42 },
    { label: "filters an array", value: [] },
    { label: "filters an array of names", value: ["protocol"] },
    { label: "filters true", value: true },
    { label: "filters a function", value: () => ({}) },
    { label: "filters a symbol", value: Symbol("f") },
    { label: "filters a bigint", value: 10n },
    { label: "filters NaN", value: NaN },
  ];
}

function badListOptions(): Bad[] {
  return [
    { label: "limit 0", value: { limit: 0 } },
    { label: "limit -1", value: { limit: -1 } },
    { label: "limit 1.5", value: { limit: 1.5 } },
    { label: "limit NaN", value: { limit: NaN } },
    { label: "limit Infinity", value: { limit: Infinity } },
    { label: "limit a string", value: { limit: "10" } },
    { label: "limit 2^53", value: { limit: 2 ** 53 } },
    { label: "no limit", value: {} },
    { label: "options null", value: null },
    { label: "options undefined", value: undefined },
    { label: "options a number", value: 5 },
    { label: "deadlineMs -1", value: { limit: 10, deadlineMs: -1 } },
    { label: "deadlineMs NaN", value: { limit: 10, deadlineMs: NaN } },
    { label: "deadlineMs a string", value: { limit: 10, deadlineMs: "1s" } },
    { label: "deadlineMs Infinity", value: { limit: 10, deadlineMs: Infinity } },
  ];
}

function badUpdates(e: RunningEmulator): Bad[] {
  return [
    { label: "name empty", value: { name: "" } },
    { label: "name blank", value: { name: "   " } },
    { label: "name a number", value: { name: 5 } },
    { label: "name 256 characters", value: { name: "x".repeat(256) } },
    { label: "name 5 MB", value: { name: "x".repeat(HUGE) } },
    { label: "name null", value: { name: null } },
    { label: "name a symbol", value: { name: Symbol("n") } },
    { label: "name a bigint", value: { name: 10n } },
    { label: "project not an id", value: { project: "PR-x" } },
    { label: "project: the API key", value: { project: e.apiKey } },
    { label: "project a number", value: { project: 5 } },
    { label: "unknown field", value: { unknown: 1 } },
    { label: "unknown field holding a bigint", value: { foo: 10n } },
    { label: "unknown field holding a symbol", value: { foo: Symbol("x") } },
    { label: "typo nam", value: { nam: "x" } },
    { label: "own __proto__ key", value: JSON.parse('{"__proto__": {"name": "x"}}') },
    { label: "constructor key", value: { constructor: "x" } },
    { label: "update a string", value: "rename" },
    { label: "update a number", value: 5 },
    { label: "update an array", value: [] },
    { label: "update true", value: true },
  ];
}

function badOptions(rng: Rng, e: RunningEmulator, fetch: FetchLike): Bad[] {
  const key = () => {
    const k = `rklive${rng.hex(34)}`;
    addSecret(k, "API key given in a bad option");
    return k;
  };
  const base = { apiUrl: e.url, apiKey: e.apiKey, fetch };
  const withBase = (extra: Record<string, unknown>) => ({ ...base, ...extra });
  const k1 = key();
  const k2 = key();
  const k3 = key();
  const k4 = key();
  const k5 = key();
  const k6 = key();
  const k7 = key();
  const k8 = key();
  const list: Bad[] = [
    ...[NaN, Infinity, -1, 0, -Infinity, "1000", null, 2 ** 31, 1e300, {}].map((v, i) => ({
      label: `timeoutMs bad #${i} (${typeof v})`,
      value: withBase({ timeoutMs: v }),
    })),
    ...[NaN, Infinity, -5, 0, "x"].map((v, i) => ({
      label: `deadlineMs bad #${i}`,
      value: withBase({ deadlineMs: v }),
    })),
    ...[
      "yes",
      5,
      null,
      [],
      { maxRetries: -1 },
      { maxRetries: 1.5 },
      { maxRetries: 1e9 },
      { maxRetries: NaN },
      { maxRetries: "3" },
      { jitter: "no" },
      { jitter: 1 },
      { baseDelayMs: -1 },
      { maxDelayMs: Infinity },
      { maxRetryAfterMs: NaN },
      { retries: 3 },
      { maxretries: 3 },
      JSON.parse('{"__proto__": {"maxRetries": 3}}'),
    ].map((v, i) => ({ label: `retry bad #${i}`, value: withBase({ retry: v }) })),
    ...[-1, NaN, "10", 1e-12, null].map((v, i) => ({
      label: `maxRequestsPerSecond bad #${i}`,
      value: withBase({ maxRequestsPerSecond: v }),
    })),
    ...[0, -1, 1.5, NaN, Infinity, "1MB"].map((v, i) => ({
      label: `maxResponseBytes bad #${i}`,
      value: withBase({ maxResponseBytes: v }),
    })),
    ...["x", 5, {}, null, true].map((v, i) => ({
      label: `fetch not a function #${i}`,
      value: withBase({ fetch: v }),
    })),
    { label: "sleep a string", value: withBase({ sleep: "x" }) },
    { label: "now a number", value: withBase({ now: 5 }) },
    { label: "random a string", value: withBase({ random: "r" }) },
    { label: "apiKey empty", value: withBase({ apiKey: "" }) },
    { label: "apiKey blank", value: withBase({ apiKey: "   " }) },
    {
      label: "apiKey with a newline (header injection)",
      value: withBase({ apiKey: `${k1}\nX-Injected: 1` }),
    },
    { label: "apiKey with a non-ASCII letter", value: withBase({ apiKey: `${k2}é` }) },
    { label: "apiKey with NUL", value: withBase({ apiKey: `${k3}\u0000` }) },
    { label: "apiKey with a tab inside", value: withBase({ apiKey: `${k4.slice(0, 20)}\t${k4.slice(20)}` }) },
    { label: "apiKey with an emoji", value: withBase({ apiKey: `${k5}🔑` }) },
    { label: "apiKey with DEL", value: withBase({ apiKey: `${k6}\u007f` }) },
    { label: "apiKey a number", value: withBase({ apiKey: 12345 }) },
    { label: "apiKey null", value: withBase({ apiKey: null }) },
    { label: "apiKey undefined", value: withBase({ apiKey: undefined }) },
    { label: "apiKey an object", value: withBase({ apiKey: {} }) },
    { label: "apiKey an array", value: withBase({ apiKey: [e.apiKey] }) },
    { label: "apiKey a symbol", value: withBase({ apiKey: Symbol("k") }) },
    { label: "apiUrl empty", value: withBase({ apiUrl: "" }) },
    { label: "apiUrl not a URL", value: withBase({ apiUrl: "not a url" }) },
    { label: "apiUrl ftp", value: withBase({ apiUrl: "ftp://127.0.0.1/" }) },
    { label: "apiUrl plain http to a remote host", value: withBase({ apiUrl: "http://api.example.com" }) },
    {
      label: "apiUrl http to localhost.evil.example",
      value: withBase({ apiUrl: "http://localhost.evil.example" }),
    },
    {
      label: "apiUrl with user and password",
      value: withBase({ apiUrl: "https://user:pass@api.example.com" }),
    },
    {
      label: "apiUrl with the key in the query",
      value: withBase({ apiKey: k7, apiUrl: `https://api.example.com/?key=${k7}` }),
    },
    {
      label: "apiUrl with the key as host label",
      value: withBase({ apiKey: k8, apiUrl: `https://${k8}.example.com` }),
    },
    {
      label: "apiUrl with the key in the path",
      value: withBase({ apiKey: k8, apiUrl: `https://api.example.com/${k8}` }),
    },
    { label: "apiUrl and apiKey swapped", value: { apiUrl: k1, apiKey: "https://api.example.com", fetch } },
    { label: "apiUrl is the API key (no key given)", value: { apiUrl: k2, fetch } },
    { label: "apiUrl with a fragment", value: withBase({ apiUrl: "https://api.example.com/#frag" }) },
    { label: "apiUrl javascript:", value: withBase({ apiUrl: "javascript:alert(1)" }) },
    { label: "apiUrl port out of range", value: withBase({ apiUrl: "http://127.0.0.1:99999" }) },
    { label: "apiUrl with a space", value: withBase({ apiUrl: "https://exa mple.com" }) },
    { label: "apiUrl 1 MB host", value: withBase({ apiUrl: `https://${"a".repeat(1_000_000)}.com` }) },
    { label: "apiUrl file:", value: withBase({ apiUrl: "file:///etc/passwd" }) },
    { label: "apiUrl unclosed IPv6", value: withBase({ apiUrl: "http://[::1" }) },
    { label: "apiUrl a number", value: withBase({ apiUrl: 5 }) },
    { label: "apiUrl null", value: withBase({ apiUrl: null }) },
    { label: "apiUrl an object", value: withBase({ apiUrl: {} }) },
    { label: "apiUrl a URL object", value: withBase({ apiUrl: new URL(e.url) }) },
    { label: "unknown option apiURL", value: { apiURL: e.url, apiKey: e.apiKey, fetch } },
    { label: "unknown option timeoutMS", value: withBase({ timeoutMS: 5 }) },
    { label: "unknown option constructor", value: withBase({ constructor: 1 }) },
    { label: "own __proto__ option", value: { ...JSON.parse('{"__proto__": {"timeoutMs": 1}}'), ...base } },
    { label: "options null", value: null },
    { label: "options undefined", value: undefined },
    { label: "options a string", value: "https://api.example.com" },
    { label: "options a number", value: 5 },
    { label: "options an array", value: [] },
    { label: "options a function", value: () => base },
    { label: "options a symbol", value: Symbol("o") },
    { label: "options a bigint", value: 10n },
  ];
  return list;
}

interface Tally {
  inputs: number;
  typed: number;
  accepted: number;
  crashes: number;
  untyped: number;
  requests: number;
}

export interface BadInputOptions {
  seed: number;
}

/** Runs section 3 and prints its table; returns its goals. */
export async function runBadInput(options: BadInputOptions): Promise<Goal[]> {
  const started = performance.now();
  const rng = new Rng(deriveSeed(options.seed, "bad-input"));
  // Verbose: its log lines are captured for the leak scan (and not shown).
  const e = await startEmulator({
    port: 0,
    seed: deriveSeed(options.seed, "bad-input/emulator"),
    quiet: false,
  });
  addEmulatorSecrets(e);
  let fetchCalls = 0;
  const recordingFetch: FetchLike = (url, init) => {
    fetchCalls++;
    return (nodeFetch as unknown as FetchLike)(url, init);
  };
  const client = new NodeServiceClient({
    apiUrl: e.url,
    apiKey: e.apiKey,
    fetch: recordingFetch,
    maxRequestsPerSecond: 0,
    retry: false,
    timeoutMs: 2000,
    deadlineMs: 4000,
  });
  const node = e.admin.getNode(e.fixtures.beaconNode)!;
  const secret = { endpoint: node.details.https_endpoint ?? "", password: node.details.auth_password ?? "" };
  const creds = { apiUrl: e.url, apiKey: e.apiKey };
  const network = e.fixtures.networkWithNodes;

  const cases: Case[] = [];
  const add = (target: Target, bads: Bad[], run: (v: unknown) => unknown) => {
    for (const b of bads) cases.push({ target, label: b.label, run: () => run(b.value) });
  };
  const ids = (prefix: "NW" | "ND", kind: "network" | "node") => [
    ...badIds(prefix, e, secret),
    ...randomBad(deriveSeed(options.seed, `ids/${prefix}`), (v) => isId(kind, v), 12),
  ];
  const c = client as unknown as Record<string, (...a: unknown[]) => unknown>;
  add("getNode", ids("ND", "node"), (v) => c.getNode(v));
  add("readNetwork", ids("NW", "network"), (v) => c.readNetwork(v));
  add("deleteNetwork", ids("NW", "network"), (v) => c.deleteNetwork(v));
  add("updateNetwork", ids("NW", "network"), (v) => c.updateNetwork(v, { name: "renamed" }));
  add("updateNetwork", badUpdates(e), (v) => c.updateNetwork(network, v));
  add("checkNetwork", ids("NW", "network"), (v) => checkNetwork({}, { networkId: v }));
  add("createNetwork", ids("NW", "network"), (v) => createNetwork({ networkId: v, ...creds } as never));
  const addresses = [
    ...badAddresses(rng, e),
    ...randomBad(deriveSeed(options.seed, "addresses"), (v) => checkAddress("a", v) === undefined, 12),
  ];
  add("requestTestTokens", addresses, (v) => c.requestTestTokens(v));
  add("checkFaucetDrip", addresses, (v) => checkFaucetDrip({}, { address: v }));
  add("createFaucetDrip", addresses, (v) => createFaucetDrip({ address: v, ...creds } as never));
  const filters = badFilters(e);
  add("listNodes", filters, async (v) => {
    for await (const _ of client.listNodes(v as never)) break;
  });
  add("listAllNodes", filters, (v) => c.listAllNodes(v, { limit: 100 }));
  add("listAllNodes", badListOptions(), (v) => c.listAllNodes({ protocol: "ethereum" }, v));
  // Names and projects the provider's check refuses (create reads the network first: see the table).
  const badNames: Bad[] = [
    { label: "name empty", value: { name: "" } },
    { label: "name blank", value: { name: "  " } },
    { label: "name a number", value: { name: 7 } },
    { label: "name 256 characters", value: { name: "n".repeat(256) } },
    { label: "project not an id", value: { project: "PR-x" } },
    { label: "project: the API key", value: { project: e.apiKey } },
  ];
  add("checkNetwork", badNames, (v) => checkNetwork({}, { networkId: network, ...(v as object) }));
  add("createNetwork", badNames, (v) =>
    createNetwork({ networkId: network, ...creds, ...(v as object) } as never),
  );
  const ctorOptions = badOptions(rng, e, recordingFetch);
  add("new NodeServiceClient", ctorOptions, (v) => new NodeServiceClient(v as never));
  // Connection inputs of the providers: the same bad URLs and keys, as resource arguments.
  const credentialBads = ctorOptions.filter(
    (b) =>
      typeof b.value === "object" &&
      b.value !== null &&
      /^api(Url|Key) /.test(b.label) &&
      !/undefined|null|blank|empty/.test(b.label),
  );
  add("checkNetwork", credentialBads, (v) => {
    const { apiUrl, apiKey } = v as Record<string, unknown>;
    return checkNetwork({}, { networkId: network, apiUrl, apiKey });
  });
  add("createNetwork", credentialBads, (v) => {
    const { apiUrl, apiKey } = v as Record<string, unknown>;
    return createNetwork({ networkId: network, apiUrl, apiKey } as never);
  });

  const tallies = new Map<Target, Tally>();
  const problems: string[] = [];
  e.resetRequests();
  for (const [i, k] of cases.entries()) {
    const t = tallies.get(k.target) ?? {
      inputs: 0,
      typed: 0,
      accepted: 0,
      crashes: 0,
      untyped: 0,
      requests: 0,
    };
    tallies.set(k.target, t);
    t.inputs++;
    const requestsBefore = e.requestStats().total;
    const fetchBefore = fetchCalls;
    const unhandledBefore = unhandled.length;
    const result = await settle(async () => k.run(), 10_000);
    await tick();
    await tick();
    // Client calls go through the recording fetch and reach the emulator: count each request once.
    const sent = Math.max(e.requestStats().total - requestsBefore, fetchCalls - fetchBefore);
    const where = `#${i} ${k.target} (${k.label})`;
    let problem: string | undefined;
    if (sent > 0) {
      t.requests += sent;
      problem = `${sent} request(s) sent`;
    }
    if (unhandled.length > unhandledBefore) {
      t.crashes++;
      problem = "unhandled rejection";
    } else if (result.status === "pending") {
      t.crashes++;
      problem = "still pending after 10 s";
    } else if (k.target === "checkNetwork" || k.target === "checkFaucetDrip") {
      if (result.status === "rejected") {
        keep(SECTION, where, result.error);
        t.crashes++;
        problem = `check threw ${result.error instanceof Error ? result.error.name : typeof result.error}`;
      } else {
        const failures = (result.value as { failures: Array<{ property: string; reason: string }> }).failures;
        for (const f of failures) keep(SECTION, `${where} check failure ${f.property}`, f.reason);
        if (failures.length > 0) t.typed++;
        else {
          t.accepted++;
          problem = "check accepted it";
        }
      }
    } else if (result.status === "resolved") {
      t.accepted++;
      problem = problem ?? "accepted (resolved)";
    } else {
      const error = result.error;
      keep(SECTION, where, error);
      const provider = k.target === "createNetwork" || k.target === "createFaucetDrip";
      if (!(error instanceof Error) || isEngineError(error)) {
        t.crashes++;
        problem = `crash: ${error instanceof Error ? `${error.name}: ${error.message.split("\n")[0].slice(0, 100)}` : typeof error}`;
      } else if (provider ? !TYPED_ERROR_NAMES.has(error.name) : !(error instanceof ApiError)) {
        t.untyped++;
        problem = `untyped ${error.name}: ${error.message.split("\n")[0].slice(0, 100)}`;
      } else if (!provider && (error as ApiError).kind !== "invalid_input") {
        t.untyped++;
        problem = `typed, but ${(error as ApiError).kind}/${(error as ApiError).code} instead of invalid_input`;
      } else if (provider && error.name !== "InvalidInputError" && error.name !== "SettingsError") {
        // Typed, but another of the client's errors (one a request would cause): listed, and
        // counted as refused only when nothing was sent.
        problem = problem ?? `refused as ${error.name}, not InvalidInputError or SettingsError`;
        if (sent === 0) t.typed++;
      } else {
        t.typed++;
      }
    }
    if (problem) problems.push(`${where}: ${problem}`);
  }
  await e.close();

  const totals: Tally = { inputs: 0, typed: 0, accepted: 0, crashes: 0, untyped: 0, requests: 0 };
  const rows: Array<Array<string | number>> = [...tallies].map(([target, t]) => {
    for (const key of Object.keys(totals) as Array<keyof Tally>) totals[key] += t[key];
    return [target, t.inputs, t.typed, t.accepted, t.crashes, t.untyped, t.requests];
  });
  rows.push([
    "total",
    totals.inputs,
    totals.typed,
    totals.accepted,
    totals.crashes,
    totals.untyped,
    totals.requests,
  ]);
  table(
    `3. Bad input (${totals.inputs} generated inputs, ${seconds(performance.now() - started)})`,
    ["target", "inputs", "refused, typed", "accepted", "crashes", "untyped", "requests sent"],
    rows,
  );
  sayProblems(problems);
  return [
    zeroGoal("3 bad input", `crashes (of ${totals.inputs} inputs)`, totals.crashes),
    zeroGoal("3 bad input", "untyped errors", totals.untyped),
    zeroGoal("3 bad input", "requests sent for invalid input", totals.requests),
  ];
}
