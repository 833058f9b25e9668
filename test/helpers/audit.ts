import * as fs from "fs";
import * as path from "path";
import { secretForms } from "../../src/model";

/** Where a secret was found: the place and a hint of which secret (never the secret itself). */
export interface Finding {
  where: string;
  secret: string;
}

function hint(secret: string): string {
  return `${secret.slice(0, 4)}… (${secret.length} chars)`;
}

/**
 * Searches every file and every text for every secret, in each of its forms (plain, URL-encoded,
 * JSON-escaped: the model's `secretForms`).
 * Returns what was found, described without revealing the secrets.
 */
export function findSecrets(
  secrets: readonly string[],
  sources: { files?: readonly string[]; texts?: Record<string, string> },
): Finding[] {
  const findings: Finding[] = [];
  const needles = secrets.filter((s) => s.length >= 6);
  const check = (where: string, content: string) => {
    for (const s of needles) {
      if (secretForms(s).some((form) => content.includes(form))) findings.push({ where, secret: hint(s) });
    }
  };
  for (const file of sources.files ?? [])
    check(path.basename(path.dirname(file)) + "/" + path.basename(file), fs.readFileSync(file, "utf8"));
  for (const [where, text] of Object.entries(sources.texts ?? {})) check(where, text);
  return findings;
}
