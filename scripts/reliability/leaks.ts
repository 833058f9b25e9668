/**
 * Section 4: leak scan. Every error and text the sections kept, rendered as a user or a log pipeline would, and
 * all of stdout and stderr (emulators' logs too), searched for every credential, endpoint URL and API key served.
 */
import { inspect } from "util";
import { NodeServiceClient } from "../../src/api";
import { startEmulator } from "../../src/emulator";
import { secretValues } from "../../src/model";
import { capturedEmulatorLines, capturedOutput, countBy, seconds, table, zero } from "../harness";
import { deriveSeed, evidence, findSecrets, sayProblems, secrets } from "./common";

/** The ways an error ends up as text: message, stack, String, JSON.stringify, util.inspect. */
const renders = (e: unknown): Array<() => unknown> =>
  e instanceof Error
    ? [
        () => e.message,
        () => e.stack,
        () => String(e),
        () => JSON.stringify(e),
        () => inspect(e, { depth: 5 }),
      ]
    : [() => String(e)];

/** The credentials an emulator serves, walked through the API with every key: how many the scan list misses. */
async function walkNodes(seed: number): Promise<{ found: number; missing: number }> {
  const e = await startEmulator({ port: 0, seed });
  try {
    const known = new Set(e.secrets());
    const found: string[] = [];
    for (const key of Object.values(e.keys)) {
      found.push(key);
      const client = new NodeServiceClient({ apiUrl: e.url, apiKey: key, maxRequestsPerSecond: 0 });
      for (const n of await client.listAllNodes({}, { limit: 10_000 }))
        found.push(...secretValues(n.details));
    }
    return { found: found.length, missing: found.filter((v) => !known.has(v)).length };
  } finally {
    await e.close();
  }
}

export async function runLeakScan(seed: number) {
  const started = performance.now();
  const walk = await walkNodes(deriveSeed(seed, "leaks"));
  const hits: Array<{ where: string; kind: string; encoded: boolean }> = [];
  let [texts, chars] = [0, 0];
  const scan = (where: string, text: string) => {
    texts++;
    chars += text.length;
    for (const h of findSecrets(text)) hits.push({ where, kind: h.kind, encoded: h.encoded });
  };
  for (const item of evidence) {
    for (const text of renders(item.value)) {
      let rendered: string;
      try {
        rendered = String(text());
      } catch (error) {
        rendered = `(rendering threw ${error instanceof Error ? error.name : typeof error})`;
      }
      scan(`${item.section} / ${item.where}`, rendered);
    }
  }
  const output = capturedOutput.join("").split("\n");
  output.forEach((line, i) => scan(`console output line ${i + 1}`, line));

  const encoded = hits.filter((h) => h.encoded).length;
  const [byKind, kinds] = [countBy(hits.map((h) => h.kind)), countBy(secrets.values())];
  const scanned = `${output.length} (${capturedEmulatorLines} emulator log lines, unshown)`;
  const walked = `${walk.found} walked, ${walk.missing} missing`;
  table(
    `4. Leak scan (${seconds(performance.now() - started)})`,
    ["figure", "value"],
    [
      ["errors and user-visible texts kept", evidence.length],
      ["console output lines scanned", scanned],
      ["renderings scanned", `${texts} (${(chars / 1e6).toFixed(1)} M characters)`],
      ["secrets searched", `${secrets.size}: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")}`],
      ["credentials walked through the API, missing from the list", walked],
      ["plaintext hits (goal 0)", hits.length - encoded],
      ["URL-encoded or JSON-escaped hits (goal 0)", encoded],
      ...[...byKind].map(([k, n]): [string, number] => [`  ${k}`, n]),
    ],
  );
  // One line per place (the renderings of one error count once); secrets never shown.
  const places = hits.map((h) => `${h.kind}${h.encoded ? " (encoded)" : ""} in ${h.where}`);
  const lines = [...countBy(places)].map(([p, n]) => `hit: ${p} (${n} across its renderings)`);
  sayProblems(lines, 10);
  return [
    zero("plaintext hits of credentials, endpoints and keys", hits.length - encoded),
    zero("encoded hits", encoded),
    zero("credentials served but missing from the scan list", walk.missing),
  ];
}
