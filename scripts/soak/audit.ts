/**
 * The soak's secrets audit: every secret the emulators serve (`emulator.secrets()`: API keys,
 * endpoint URLs, auth usernames, passwords and keys) plus the API key and the admin key, searched
 * in plaintext and JSON-escaped form (`test/helpers/audit.ts`) in every file of the engine
 * sandbox (the `file://` backend's stacks, history and backups, `PULUMI_HOME`, the projects'
 * stack config files), everything the engine printed, the plugin's standard error, and
 * everything this run printed.
 */
import * as fs from "fs";
import * as path from "path";
import { findSecrets } from "../../test/helpers/audit";
import type { Finding } from "../../test/helpers/audit";

/** What the audit searched and found. */
export interface AuditResult {
  secrets: number;
  files: number;
  bytes: number;
  texts: number;
  textChars: number;
  findings: Finding[];
  ms: number;
}

/** Every regular file under `dir`, skipping symbolic links. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/** Searches `dirs` (every file) and `texts` for `secrets`. */
export function auditSecrets(
  secrets: readonly string[],
  dirs: readonly string[],
  texts: Record<string, string>,
): AuditResult {
  const started = performance.now();
  const unique = [...new Set(secrets)];
  const files = dirs.filter((d) => fs.existsSync(d)).flatMap(filesUnder);
  const bytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
  const findings = findSecrets(unique, { files, texts });
  return {
    secrets: unique.length,
    files: files.length,
    bytes,
    texts: Object.keys(texts).length,
    textChars: Object.values(texts).reduce((sum, t) => sum + t.length, 0),
    findings,
    ms: performance.now() - started,
  };
}
