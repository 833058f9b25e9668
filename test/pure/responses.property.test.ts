/** Any answer settles a call with a value or an ApiError; an unreadable faucet answer may be processed. */
import fc from "fast-check";
import { ApiError, NodeServiceClient } from "../../src/api";
import { errorOf, holdsAsync } from "../helpers/arbitraries";
import { FakeAnswer, collect, recordingFetch, testClient, wireNetwork, wireNode } from "../helpers/client";

const API_KEY = "property-key-Zx81Qp0Lm7Vb3Nc5";
const ADDRESS = "0x52908400098527886e0f7030069857d2e4169ee7";

function clientAnswering(answers: FakeAnswer[]): { client: NodeServiceClient; calls: () => number } {
  const { fetch, calls } = recordingFetch((_url, i) => answers[Math.min(i, answers.length - 1)]);
  const retry = { maxRetries: 2, baseDelayMs: 0, maxDelayMs: 0 };
  const client = testClient("https://api.example.com", API_KEY, { fetch, retry });
  return { client, calls: () => calls.length };
}

/** A JSON value that looks a bit like the service's objects, mutated. */
const jsonish = fc.oneof(
  fc.jsonValue(),
  fc.constant(wireNode()),
  fc.constant(wireNetwork()),
  fc.record({ count: fc.anything(), next: fc.oneof(fc.constant(null), fc.string()), results: fc.anything() }),
  fc.record({ error: fc.anything(), nextFaucetAvailable: fc.anything() }),
  fc.record({ amountSent: fc.anything(), transaction: fc.anything() }),
  fc.dictionary(fc.constantFrom(...Object.keys(wireNode())), fc.jsonValue()),
);

const answer: fc.Arbitrary<FakeAnswer> = fc.record({
  status: fc.constantFrom(200, 201, 204, 301, 400, 401, 403, 404, 409, 418, 429, 500, 502, 503, 504),
  text: fc.oneof(
    jsonish.map((v) => JSON.stringify(v) ?? ""),
    fc.string(),
    jsonish.map((v) => (JSON.stringify(v) ?? "").slice(0, 7)),
    fc.constant("<html><body>Gateway</body></html>"),
  ),
  headers: fc.record(
    {
      "content-type": fc.constantFrom("application/json", "text/html", ""),
      // No digit: a server wait other than 0 would be waited for real.
      "retry-after": fc.oneof(
        fc.constant("0"),
        fc.string({ maxLength: 12 }).filter((s) => !/\d/.test(s)),
      ),
      location: fc.string({ maxLength: 40 }),
    },
    { requiredKeys: [] },
  ),
});

type Call = (c: NodeServiceClient) => Promise<unknown>;
const calls: Record<string, Call> = {
  getNode: (c) => c.getNode("ND-123-456-789"),
  readNetwork: (c) => c.readNetwork("NW-123-456-7"),
  updateNetwork: (c) => c.updateNetwork("NW-123-456-7", { name: "n" }),
  deleteNetwork: (c) => c.deleteNetwork("NW-123-456-7"),
  listNodes: (c) => collect(c.listNodes()),
  listAllNodes: (c) => c.listAllNodes(undefined, { limit: 50 }),
  requestTestTokens: (c) => c.requestTestTokens(ADDRESS),
};

describe("any server answer settles with a value or an ApiError", () => {
  it.each(Object.keys(calls))("%s", async (name) => {
    await holdsAsync(
      { seed: 8, numRuns: 150 },
      fc.array(answer, { minLength: 1, maxLength: 4 }),
      async (answers) => {
        const { client, calls: sent } = clientAnswering(answers);
        const error = await errorOf(calls[name](client));
        if (error === undefined) return;
        expect(error).toBeInstanceOf(ApiError);
        const e = error as ApiError;
        for (const text of [e.message, JSON.stringify(e)]) expect(text).not.toContain(API_KEY);
        if (name === "requestTestTokens" && sent() > 0) {
          // Not processed only after a clear refusal: a 4xx with the service's error object, or 429/503 with Retry-After.
          const status = answers[Math.min(sent() - 1, answers.length - 1)].status!;
          if (e.mayHaveBeenProcessed === false)
            expect((status >= 400 && status < 500) || status === 503).toBe(true);
          if (status >= 200 && status < 300) expect(e.mayHaveBeenProcessed).toBe(true);
        }
      },
    );
  });
});
