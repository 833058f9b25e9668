/**
 * Section 5: leak scan. Every error and user-visible text kept by the sections above, and
 * everything written to stdout and stderr (the verbose emulators' logs included), rendered the
 * ways a user or a log pipeline would render them, searched for every credential and endpoint URL
 * the emulators served and every API key used.
 *
 * The goals cover everything the client knew: its API key (always) and every credential it had
 * read. Credentials a hostile server echoed to a client that had never read them (kept with
 * `unread`, see `keep`) are counted apart, without a goal: no client can recognise a bare
 * password it has never seen. An API key is never counted there.
 */
import { inspect } from "util";
import { NodeServiceClient, type Node } from "../../src/api";
import { startEmulator } from "../../src/emulator";
import { secretValues } from "../../src/model";
import {
  Goal,
  capturedEmulatorLines,
  capturedOutput,
  deriveSeed,
  evidence,
  findSecrets,
  say,
  sayProblems,
  secrets,
  table,
  zeroGoal,
} from "./common";

/** The ways an error ends up as text. */
function renders(value: unknown): Array<[string, string]> {
  if (typeof value === "string") return [["text", value]];
  const out: Array<[string, string]> = [];
  const attempt = (name: string, render: () => unknown) => {
    try {
      const text = render();
      out.push([name, typeof text === "string" ? text : String(text)]);
    } catch (error) {
      out.push([name, `(rendering threw ${error instanceof Error ? error.name : typeof error})`]);
    }
  };
  if (value instanceof Error) {
    attempt("message", () => value.message);
    attempt("stack", () => value.stack ?? "");
  }
  attempt("String(err)", () => String(value));
  attempt("JSON.stringify(err)", () => JSON.stringify(value) ?? "undefined");
  attempt("util.inspect(err, {depth: 5})", () => inspect(value, { depth: 5 }));
  return out;
}

/**
 * Walks the nodes an emulator serves, through the API, with every organization's key, and
 * returns every endpoint and credential found (to check that the scan list covers them).
 */
async function walkNodes(seed: number): Promise<{ found: string[]; missing: number }> {
  const e = await startEmulator({ port: 0, seed });
  try {
    const known = new Set(e.secrets());
    const found: string[] = [];
    for (const key of Object.values(e.keys)) {
      found.push(key);
      const client = new NodeServiceClient({ apiUrl: e.url, apiKey: key, maxRequestsPerSecond: 0 });
      const nodes: Node[] = await client.listAllNodes({}, { limit: 10_000 });
      for (const n of nodes) found.push(...secretValues(n.details));
    }
    for (const id of Object.values(e.fixtures)) {
      const n = e.admin.getNode(id);
      if (n)
        for (const v of Object.values(n.details))
          if (typeof v === "string" && /:\/\/|^[0-9a-f-]{16,}$/.test(v)) found.push(v);
    }
    return { found, missing: found.filter((v) => !known.has(v)).length };
  } finally {
    await e.close();
  }
}

/** Runs section 5 and prints its table; returns its goals. */
export async function runLeakScan(seed: number): Promise<Goal[]> {
  const started = performance.now();
  // The data the bad-input section's verbose emulator served, walked through the API.
  const walk = await walkNodes(deriveSeed(seed, "bad-input/emulator"));

  // Hits of what the client knew (its API key, every credential it had read; goal 0), and,
  // apart, echoes of credentials a hostile server sent although the client had never read them.
  type Hit = { where: string; kind: string; encoded: boolean };
  const hits: Hit[] = [];
  const unreadHits: Hit[] = [];
  let texts = 0;
  let chars = 0;
  let errors = 0;
  let unreadItems = 0;
  const scan = (where: string, text: string, unread?: ReadonlySet<string>) => {
    texts++;
    chars += text.length;
    for (const h of findSecrets(text)) {
      (unread?.has(h.secret) ? unreadHits : hits).push({ where, kind: h.kind, encoded: h.encoded });
    }
  };
  let unreadItemsWithHits = 0;
  for (const item of evidence) {
    if (typeof item.value !== "string") errors++;
    if (item.unread) unreadItems++;
    const before = unreadHits.length;
    for (const [render, text] of renders(item.value))
      scan(`${item.section} / ${item.where} / ${render}`, text, item.unread);
    if (unreadHits.length > before) unreadItemsWithHits++;
  }
  // Everything written to stdout and stderr so far (emulator logs included), line by line.
  const output = capturedOutput.join("").split("\n");
  output.forEach((line, i) => scan(`console output line ${i + 1}`, line));

  const literal = hits.filter((h) => !h.encoded).length;
  const encoded = hits.length - literal;
  const countByKind = (list: Hit[]) => {
    const byKind = new Map<string, number>();
    for (const h of list) byKind.set(h.kind, (byKind.get(h.kind) ?? 0) + 1);
    return [...byKind].map(([k, n]): [string, number] => [`  ${k}`, n]);
  };
  const unreadLiteral = unreadHits.filter((h) => !h.encoded).length;
  const kinds = new Map<string, number>();
  for (const kind of secrets.values()) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  table(
    `5. Leak scan (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    ["figure", "value"],
    [
      ["errors and user-visible texts kept", `${evidence.length} (${errors} errors)`],
      [
        "console output lines scanned",
        `${output.length} (${capturedEmulatorLines} emulator log lines, captured unshown)`,
      ],
      ["renderings scanned", `${texts} (${(chars / 1e6).toFixed(1)} M characters)`],
      ["secrets searched", `${secrets.size}: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")}`],
      [
        "credentials walked through the API, missing from the list",
        `${walk.found.length} walked, ${walk.missing} missing`,
      ],
      ["what the client knew (API keys, credentials it had read): plaintext hits (goal 0)", literal],
      ["  URL-encoded or JSON-escaped hits (goal 0)", encoded],
      ...countByKind(hits),
      [
        "echoes of credentials the client never read (informational, no goal)",
        `${unreadHits.length} hits (${unreadLiteral} plaintext) in ${unreadItemsWithHits} of ${unreadItems} such errors`,
      ],
      ...countByKind(unreadHits),
    ],
  );
  say(
    "  never read: a hostile server echoing credentials its client never received; no client can tell such a bare password from a word",
  );
  // One line per place (the renderings of one error count once), secrets never shown.
  const placesOf = (list: Hit[]) => {
    const places = new Map<string, number>();
    for (const h of list) {
      const place = `${h.kind}${h.encoded ? " (encoded)" : ""} in ${h.where.replace(/ \/ (message|stack|String\(err\)|JSON\.stringify\(err\)|util\.inspect\(err, \{depth: 5\}\)|text)$/, "")}`;
      places.set(place, (places.get(place) ?? 0) + 1);
    }
    return [...places].map(([place, n]) => `${place} (${n} hit${n === 1 ? "" : "s"} across its renderings)`);
  };
  const places = placesOf(hits);
  if (places.length > 0) say(`  places with hits of what the client knew: ${places.length}`);
  sayProblems(
    places.map((p) => `hit: ${p}`),
    10,
  );
  const unreadPlaces = placesOf(unreadHits);
  if (unreadPlaces.length > 0) say(`  places with echoes of credentials never read: ${unreadPlaces.length}`);
  sayProblems(
    unreadPlaces.map((p) => `never read: ${p}`),
    3,
  );
  return [
    zeroGoal("5 leak scan", "plaintext hits of credentials, endpoints and keys the client knew", literal),
    zeroGoal("5 leak scan", "encoded hits", encoded),
    {
      section: "5 leak scan",
      figure: "echoes of credentials the client never read (hits)",
      value: String(unreadHits.length),
      goal: "none",
      met: true,
      informational: true,
    },
  ];
}
