/**
 * A small on-disk journal that keeps FaucetDrip from sending twice after an interrupted run.
 *
 * The engine records a pending create before it calls the provider; when the engine is killed
 * while the faucet request is in flight, the next `pulumi up` drops that pending create and calls
 * `create` again. Without memory of the first attempt, that would send tokens a second time. So
 * before each send the provider writes an entry "sending to <address> at <time>" (keyed by the
 * API URL, the address and the chain, no key or credential in it; an entry of the default chain,
 * `goerli`, keeps the key it had before chains existed, so an entry left by an older version is
 * still found) and removes it once the outcome is known
 * and recorded. A `create` that finds an entry written by another process less than a day ago
 * (the faucet's window) does not send: it records the outcome as unknown and removes the entry, so
 * that an explicit `pulumi up --replace <urn>` sends again.
 *
 * The journal lives in `$BLOCKCHAIN_FAUCET_JOURNAL_DIR`, or `$PULUMI_HOME/blockchain-nodes/faucet-journal`
 * (default `~/.pulumi/...`): it protects runs on one machine, or on CI runners that keep that
 * directory in their cache.
 */
import { createHash, randomUUID } from "crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "fs";
import { homedir } from "os";
import { join } from "path";
import { DEFAULT_FAUCET_CHAIN } from "../model";

/** How long an interrupted send keeps blocking automatic sends: one day, the faucet's window. */
export const JOURNAL_WINDOW_MS = 24 * 60 * 60 * 1000;

/** This process's mark on the entries it writes (concurrent sends of one process are not "interrupted"). */
const PROCESS_TOKEN = randomUUID();

interface Entry {
  address: string;
  /** Absent in entries written before chains existed (those were `goerli`). */
  chain?: string;
  apiUrl: string;
  startedAt: string;
  process: string;
}

/** The journal directory: `BLOCKCHAIN_FAUCET_JOURNAL_DIR`, else under `PULUMI_HOME` (or `~/.pulumi`). */
export function journalDir(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.BLOCKCHAIN_FAUCET_JOURNAL_DIR;
  if (explicit !== undefined && explicit.trim() !== "") return explicit;
  const home =
    env.PULUMI_HOME && env.PULUMI_HOME.trim() !== "" ? env.PULUMI_HOME : join(homedir(), ".pulumi");
  return join(home, "blockchain-nodes", "faucet-journal");
}

/**
 * The entry's file: a hash of the API URL, the address (case-insensitive) and the chain. The
 * default chain is left out of the hash, so its entries keep the name they had before chains
 * existed.
 */
function entryPath(apiUrl: string, address: string, chain: string): string {
  const chainPart = chain === DEFAULT_FAUCET_CHAIN ? "" : `\n${chain}`;
  const key = createHash("sha256")
    .update(`${apiUrl}\n${address.toLowerCase()}${chainPart}`)
    .digest("hex")
    .slice(0, 32);
  return join(journalDir(), `${key}.json`);
}

function readEntry(file: string): Entry | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<Entry>;
    if (typeof parsed.startedAt !== "string" || typeof parsed.process !== "string") return undefined;
    return parsed as Entry;
  } catch {
    return undefined;
  }
}

/** What {@link beginSend} found: go ahead (the entry is written), or a send interrupted earlier. */
export type BeginResult = { interrupted: false } | { interrupted: true; startedAt: string };

/**
 * Called right before a faucet request. When another process started a send to the same address
 * on the same API and chain (default `goerli`) less than {@link JOURNAL_WINDOW_MS} ago and never
 * finished it, returns
 * `interrupted` (and clears the entry: the caller records the outcome as unknown). Otherwise
 * writes the entry and returns `interrupted: false`. A journal that cannot be written does not
 * block the send.
 */
export function beginSend(
  apiUrl: string,
  address: string,
  chain: string = DEFAULT_FAUCET_CHAIN,
  now: number = Date.now(),
): BeginResult {
  const file = entryPath(apiUrl, address, chain);
  const existing = readEntry(file);
  if (
    existing !== undefined &&
    existing.process !== PROCESS_TOKEN &&
    now - Date.parse(existing.startedAt) < JOURNAL_WINDOW_MS
  ) {
    finishSend(apiUrl, address, chain);
    return { interrupted: true, startedAt: existing.startedAt };
  }
  const entry: Entry = {
    address,
    chain,
    apiUrl,
    startedAt: new Date(now).toISOString(),
    process: PROCESS_TOKEN,
  };
  try {
    mkdirSync(journalDir(), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(entry), { mode: 0o600, flush: true });
    renameSync(tmp, file);
  } catch {
    // No journal (read-only home): the send goes on; only the interrupted-run guard is lost.
  }
  return { interrupted: false };
}

/** Called once the outcome of a send is known and about to be recorded (or the send was refused). */
export function finishSend(apiUrl: string, address: string, chain: string = DEFAULT_FAUCET_CHAIN): void {
  try {
    rmSync(entryPath(apiUrl, address, chain), { force: true });
  } catch {
    // nothing to clean
  }
}
