/**
 * An on-disk journal that keeps FaucetDrip from sending twice: a killed `pulumi up` drops its
 * pending create, and the next run would call `create` again. An entry is written before each
 * send and removed once the outcome is recorded; one left by another process within a day makes
 * `create` record an unknown outcome instead of sending.
 */
import { createHash, randomUUID } from "crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "fs";
import { homedir } from "os";
import { join } from "path";
import { DEFAULT_FAUCET_CHAIN } from "../model/rules";

/** How long an interrupted send keeps blocking automatic sends: one day, the faucet's window. */
export const JOURNAL_WINDOW_MS = 24 * 60 * 60 * 1000;

/** This process's mark on the entries it writes (concurrent sends of one process are not "interrupted"). */
const PROCESS_TOKEN = randomUUID();

interface Entry {
  address: string;
  /** Absent in entries written before chains existed (`goerli`). */
  chain?: string;
  apiUrl: string;
  startedAt: string;
  process: string;
}

/** The journal directory: `BLOCKCHAIN_FAUCET_JOURNAL_DIR`, else under `PULUMI_HOME` (or `~/.pulumi`). */
export function journalDir(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.BLOCKCHAIN_FAUCET_JOURNAL_DIR;
  if (explicit !== undefined && explicit.trim() !== "") return explicit;
  const home = env.PULUMI_HOME?.trim() ? env.PULUMI_HOME : join(homedir(), ".pulumi");
  return join(home, "blockchain-nodes", "faucet-journal");
}

/** The entry's file: a hash of the API URL, the address and the chain (left out for `goerli`, as before chains existed). */
function entryPath(apiUrl: string, address: string, chain: string): string {
  const chainPart = chain === DEFAULT_FAUCET_CHAIN ? "" : `\n${chain}`;
  const hash = createHash("sha256").update(`${apiUrl}\n${address.toLowerCase()}${chainPart}`).digest("hex");
  return join(journalDir(), `${hash.slice(0, 32)}.json`);
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
 * Called right before a send: when another process began one to the same target less than
 * {@link JOURNAL_WINDOW_MS} ago, clears it and returns `interrupted`; else writes the entry.
 * A journal that cannot be written does not block the send.
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
  const startedAt = new Date(now).toISOString();
  const entry: Entry = { address, chain, apiUrl, startedAt, process: PROCESS_TOKEN };
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

/** Called once the outcome of a send is known (or the send was refused). */
export function finishSend(apiUrl: string, address: string, chain: string = DEFAULT_FAUCET_CHAIN): void {
  try {
    rmSync(entryPath(apiUrl, address, chain), { force: true });
  } catch {
    // nothing to clean
  }
}
