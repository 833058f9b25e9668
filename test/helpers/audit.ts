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

/** Every secret in any form (`secretForms`) found in the files and texts, described without revealing it. */
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
