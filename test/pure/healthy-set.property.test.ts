/** `verify`'s messages and order over generated nodes and answers, the endpoint read stubbed here. */
import fc from "fast-check";
import type { Node, NodeServiceClient } from "../../src/api";
import { EndpointCheckError, readChainHead, type ChainHead } from "../../src/api/node-check";
import {
  byFreshness,
  checkVerify,
  MAX_VERIFY_MESSAGE_CHARS,
  verifyNodes,
  VerifyError,
} from "../../src/functions/verify";
import type { VerifiedEndpoint } from "../../src/provider/node-views";
import { credentialForms, holds, holdsAsync, joined, runs } from "../helpers/arbitraries";

jest.mock("../../src/api/node-check", () => ({
  ...jest.requireActual("../../src/api/node-check"),
  readChainHead: jest.fn(),
}));

const SEED = 20261128;
const read = readChainHead as jest.MockedFunction<typeof readChainHead>;
const known = { publicNetwork: "ethereum-mainnet" as const };
const noClient = {} as NodeServiceClient;

type Credentials = Record<"key" | "username" | "password", string>;
type Outcome =
  | { chainId: string; ageSeconds: number; latencyMs: number }
  | { kind: EndpointCheckError["kind"]; message: string };

const credentials: fc.Arbitrary<Credentials> = fc.record({
  key: fc.stringMatching(/^[A-Za-z0-9]{16,24}$/),
  username: fc.stringMatching(/^[a-z]{8,12}$/),
  password: fc.stringMatching(/^[A-Za-z0-9]{12,20}$/),
});

/** A chain id as a node may answer: "1", garbage, huge, or holding its own credentials and URLs. */
const chainIdOf = (c: Credentials) =>
  joined(
    fc.oneof(
      fc.constant("1"),
      fc.string({ maxLength: 40 }),
      fc.string({ unit: "grapheme", maxLength: 40 }),
      fc.constantFrom(
        c.key,
        c.username,
        c.password,
        `${c.username}:${c.password}`,
        encodeURIComponent(c.key),
      ),
      fc.constantFrom(`https://node.example/${c.key}`, "\n", "\u0000", " ", ";", "0x1"),
      fc.string({ minLength: 300, maxLength: 3000 }),
    ),
    { minLength: 1, maxLength: 6 },
  );

/** What the endpoint read gives: a head (of any chain, any age) or a failure as node-check words it. */
const head = (chainId: fc.Arbitrary<string>, maxAge: number) =>
  fc.record({ chainId, ageSeconds: fc.nat({ max: maxAge }), latencyMs: fc.nat({ max: 5000 }) });
const outcomeOf = (c: Credentials): fc.Arbitrary<Outcome> =>
  fc.oneof(
    head(chainIdOf(c), 1000),
    head(fc.constant("1"), 130),
    fc.record({
      kind: fc.constantFrom("unreachable", "credentials", "answer", "unsupported"),
      // node-check promises no credential and at most about 200 characters; longer ones too, here.
      message: fc
        .oneof(fc.string({ maxLength: 200 }), fc.string({ minLength: 600, maxLength: 2000 }))
        .filter((m) => !credentialForms(c).some((s) => m.includes(s))),
    }),
  );

const nodesArb = fc
  .array(
    fc.record({
      credentials,
      running: fc.constantFrom(true, true, true, false),
      shown: fc.constantFrom(true, true, true, false),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .chain((specs) =>
    fc.tuple(
      fc.constant(specs),
      fc.tuple(...specs.map((s) => outcomeOf(s.credentials))),
      fc.option(fc.integer({ min: 1, max: specs.length + 2 }), { nil: undefined }),
    ),
  );

function nodeOf(i: number, c: Credentials, running: boolean, shown: boolean): Node {
  const url = `https://node${i}.example/${c.key}`;
  return {
    id: `ND-100-200-${String(i).padStart(3, "0")}`,
    name: `node ${i}`,
    network: "NW-100-200-1",
    status: running ? "running" : "stopped",
    details: shown
      ? { httpsEndpoint: url, authKey: c.key, authUsername: c.username, authPassword: c.password }
      : {},
  } as Node;
}

test("whatever the nodes answer, the message or warning is one bounded line with no credential or URL; a healthy set holds at least minVerified passing nodes, freshest first", async () => {
  await holdsAsync(runs(SEED, 300), nodesArb, async ([specs, outcomes, minVerified]) => {
    const nodes = specs.map((s, i) => nodeOf(i, s.credentials, s.running, s.shown));
    const byUrl = new Map(nodes.map((n, i) => [n.details.httpsEndpoint, outcomes[i]]));
    read.mockImplementation(async (_family, access): Promise<ChainHead> => {
      const outcome = byUrl.get(access.url)!;
      if ("kind" in outcome) throw new EndpointCheckError(outcome.kind, outcome.message);
      const headTime = Date.now() - outcome.ageSeconds * 1000;
      return {
        chainId: outcome.chainId,
        headBlock: 1000 - outcome.ageSeconds,
        headTime,
        latencyMs: outcome.latencyMs,
      };
    });
    const warnings: string[] = [];
    const settings = checkVerify("getNodesOutput", { minVerified }, { warn: (m) => void warnings.push(m) })!;
    const result = await verifyNodes("getNodesOutput", nodes, settings, noClient, known).then(
      (ok) => ({ ok }),
      (error: unknown) => ({ error }),
    );
    const texts = [...warnings];
    if ("error" in result) {
      expect(result.error).toBeInstanceOf(VerifyError);
      texts.push((result.error as Error).message);
    } else {
      const passing = result.ok;
      expect(passing.length).toBeGreaterThanOrEqual(minVerified ?? nodes.length);
      for (const n of passing) {
        const outcome = outcomes[nodes.findIndex((m) => m.id === n.id)];
        expect(outcome).toMatchObject({ chainId: "1" });
      }
      if (minVerified !== undefined) {
        const ages = passing.map((n) => n.verified!.headAgeSeconds);
        expect(ages).toEqual([...ages].sort((a, b) => a - b));
      }
      expect(warnings).toHaveLength(passing.length < nodes.length ? 1 : 0);
    }
    const secrets = specs.flatMap((s) => credentialForms(s.credentials));
    for (const text of texts) {
      expect(text.length).toBeLessThanOrEqual(MAX_VERIFY_MESSAGE_CHARS);
      expect(text).not.toMatch(/[\r\n]/);
      expect(text).not.toContain("://");
      expect(secrets.filter((s) => text.includes(s))).toEqual([]);
    }
  });
});

test("a long list names the nodes that fit, then how many more", async () => {
  const nodes = Array.from({ length: 200 }, (_, i) =>
    nodeOf(i, { key: `k${i}abcdefghijklmnop`, username: "someuser", password: "somepassword1" }, false, true),
  );
  const error = await verifyNodes("getNodes", nodes, checkVerify("getNodes", true)!, noClient, known).catch(
    (e: Error) => e,
  );
  expect(error).toBeInstanceOf(VerifyError);
  const { message } = error as Error;
  expect(message).toMatch(/^getNodes: 200 of 200 .*ND-100-200-000: .*\bstopped\b/);
  const named = message.match(/ND-100-200-\d{3}/g)!.length;
  expect(named).toBeGreaterThan(5);
  expect(message).toContain(`; and ${200 - named} more.`);
  expect(message).toContain('add waitFor: { status: "running" }');
  expect(message.length).toBeLessThanOrEqual(MAX_VERIFY_MESSAGE_CHARS);
});

describe("byFreshness", () => {
  const endpoint = fc.record({
    chainId: fc.constantFrom("1", "1", "137"),
    headBlock: fc.integer({ min: 0, max: 50 }),
    headAgeSeconds: fc.integer({ min: 0, max: 5 }),
    latencyMs: fc.integer({ min: 0, max: 5 }),
    checkedAt: fc.constant("2026-01-01T00:00:00.000Z"),
  });
  const items = fc.array(
    endpoint.map((verified) => ({ verified })),
    { maxLength: 30 },
  );

  test("youngest head first, then (one chain) highest block, then lowest latency; a permutation, stable", () => {
    holds(runs(SEED, 500), items, (list) => {
      const tagged = list.map((n, i) => ({ ...n, i }));
      const sorted = byFreshness(tagged);
      expect([...sorted].sort((a, b) => a.i - b.i)).toEqual(tagged);
      const oneChain = new Set(list.map((n) => n.verified.chainId)).size <= 1;
      for (let k = 1; k < sorted.length; k++) {
        const [a, b]: VerifiedEndpoint[] = [sorted[k - 1].verified, sorted[k].verified];
        expect(a.headAgeSeconds).toBeLessThanOrEqual(b.headAgeSeconds);
        if (a.headAgeSeconds !== b.headAgeSeconds) continue;
        if (oneChain) {
          expect(a.headBlock).toBeGreaterThanOrEqual(b.headBlock);
          if (a.headBlock !== b.headBlock) continue;
        }
        expect(a.latencyMs).toBeLessThanOrEqual(b.latencyMs);
        if (a.latencyMs === b.latencyMs) expect(sorted[k - 1].i).toBeLessThan(sorted[k].i);
      }
    });
  });
});
