import {
  DEFAULT_RETRY_POLICY,
  RetryContext,
  RetryPolicy,
  backoffDelay,
  isIdempotent,
  parseDateDelay,
  parseRetryAfter,
  retryDelay,
  retryStop,
  shouldRetry,
} from "../../src/api/retry";

const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, jitter: false };

function ctx(overrides: Partial<RetryContext>): RetryContext {
  return { method: "GET", attempt: 1, maxAttempts: 5, elapsedMs: 0, deadlineMs: 120_000, ...overrides };
}

describe("shouldRetry: idempotent methods", () => {
  it.each([429, 502, 503, 504])("retries GET on %i", (status) => {
    expect(shouldRetry(ctx({ status }), policy)).toBe(true);
  });

  it.each(["GET", "PATCH", "DELETE"])("retries %s on 503", (method) => {
    expect(shouldRetry(ctx({ method, status: 503 }), policy)).toBe(true);
  });

  it("does not retry 500 (a server bug)", () => {
    expect(retryStop(ctx({ status: 500 }), policy)).toBe("not_retryable");
  });

  it.each([400, 401, 403, 404, 409, 422, 501])("does not retry %i", (status) => {
    expect(shouldRetry(ctx({ status }), policy)).toBe(false);
  });

  it("retries a per-attempt timeout", () => {
    expect(shouldRetry(ctx({ method: "PATCH", failure: "timeout" }), policy)).toBe(true);
  });

  it("retries a failed connection (reset, hang up)", () => {
    expect(shouldRetry(ctx({ method: "DELETE", failure: "connection" }), policy)).toBe(true);
  });

  it.each(["GET", "PATCH", "DELETE"])("retries %s after a refused connection", (method) => {
    expect(retryStop(ctx({ method, failure: "refused" }), policy)).toBeUndefined();
  });

  it("does not retry other network failures (DNS, TLS)", () => {
    expect(retryStop(ctx({ failure: "network" }), policy)).toBe("not_retryable");
  });

  it("honours a custom list of retryable statuses", () => {
    expect(shouldRetry(ctx({ status: 500 }), { ...policy, retryableStatuses: [500] })).toBe(true);
  });
});

describe("shouldRetry: the faucet POST (not idempotent)", () => {
  it("retries 429 (the service did not process it)", () => {
    expect(shouldRetry(ctx({ method: "POST", status: 429 }), policy)).toBe(true);
  });

  it("retries 503 with Retry-After", () => {
    expect(shouldRetry(ctx({ method: "POST", status: 503, retryAfterMs: 1000 }), policy)).toBe(true);
  });

  it("does not retry 503 without Retry-After", () => {
    expect(retryStop(ctx({ method: "POST", status: 503 }), policy)).toBe("not_retryable");
  });

  it.each([502, 504, 500])("does not retry %i", (status) => {
    expect(shouldRetry(ctx({ method: "POST", status }), policy)).toBe(false);
  });

  it("never retries after a timeout: it may have been processed", () => {
    expect(retryStop(ctx({ method: "POST", failure: "timeout" }), policy)).toBe("may_have_been_processed");
  });

  it("never retries after a dropped connection: it may have been processed", () => {
    expect(retryStop(ctx({ method: "POST", failure: "connection" }), policy)).toBe("may_have_been_processed");
  });

  it("retries a refused connection: nothing was sent, so nothing was processed", () => {
    expect(retryStop(ctx({ method: "POST", failure: "refused" }), policy)).toBeUndefined();
    expect(shouldRetry(ctx({ method: "POST", failure: "refused", attempt: 4 }), policy)).toBe(true);
  });

  it("a refused connection is retried with the local backoff", () => {
    const refused = (attempt: number) => ctx({ method: "POST", failure: "refused", attempt });
    expect([1, 2, 3].map((attempt) => retryDelay(refused(attempt), policy))).toEqual([250, 500, 1000]);
  });

  it("a refused connection still counts against the attempts, and is never 'may have been processed'", () => {
    expect(retryStop(ctx({ method: "POST", failure: "refused", attempt: 5, maxAttempts: 5 }), policy)).toBe(
      "attempts_exhausted",
    );
    expect(retryStop(ctx({ method: "POST", failure: "refused", attempt: 1, maxAttempts: 1 }), policy)).toBe(
      "attempts_exhausted",
    );
  });

  it("a refused connection is not retried past the deadline", () => {
    expect(retryStop(ctx({ method: "POST", failure: "refused", elapsedMs: 119_900 }), policy)).toBe(
      "deadline",
    );
  });

  it("POST is the only non-idempotent method", () => {
    expect(["GET", "PATCH", "DELETE", "post"].map(isIdempotent)).toEqual([true, true, true, false]);
  });
});

describe("shouldRetry: counts, Retry-After cap and deadline", () => {
  it("stops when the attempts are exhausted", () => {
    expect(retryStop(ctx({ status: 503, attempt: 5, maxAttempts: 5 }), policy)).toBe("attempts_exhausted");
    expect(shouldRetry(ctx({ status: 503, attempt: 4, maxAttempts: 5 }), policy)).toBe(true);
  });

  it("a single attempt (retries off) never retries", () => {
    expect(shouldRetry(ctx({ status: 503, attempt: 1, maxAttempts: 1 }), policy)).toBe(false);
  });

  it("gives up when Retry-After exceeds maxRetryAfterMs", () => {
    expect(retryStop(ctx({ status: 429, retryAfterMs: 61_000 }), policy)).toBe("retry_after_too_long");
    expect(shouldRetry(ctx({ status: 429, retryAfterMs: 60_000 }), policy)).toBe(true);
  });

  it("gives up when the wait would pass the deadline", () => {
    expect(retryStop(ctx({ status: 429, retryAfterMs: 5_000, elapsedMs: 116_000 }), policy)).toBe("deadline");
    expect(retryStop(ctx({ status: 503, elapsedMs: 119_900 }), policy)).toBe("deadline");
    expect(shouldRetry(ctx({ status: 503, elapsedMs: 100_000 }), policy)).toBe(true);
  });

  it("the deadline check uses the shortest jittered delay", () => {
    const jittered = { ...policy, jitter: true };
    // attempt 3: backoff 1000, jitter range [500, 1000]
    expect(shouldRetry(ctx({ status: 503, attempt: 3, elapsedMs: 1_000, deadlineMs: 1_600 }), jittered)).toBe(
      true,
    );
    expect(shouldRetry(ctx({ status: 503, attempt: 3, elapsedMs: 1_000, deadlineMs: 1_400 }), jittered)).toBe(
      false,
    );
  });
});

describe("retryDelay", () => {
  it("grows exponentially from the base delay", () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelay(ctx({ status: 503, attempt }), policy))).toEqual([
      250, 500, 1000, 2000,
    ]);
  });

  it("is capped at maxDelayMs", () => {
    expect(retryDelay(ctx({ status: 503, attempt: 10 }), policy)).toBe(8000);
    expect(backoffDelay(100, policy)).toBe(8000);
  });

  it("jitter stays within [half, full] of the backoff", () => {
    const jittered = { ...policy, jitter: true };
    expect(retryDelay(ctx({ status: 503, attempt: 3 }), jittered, () => 0)).toBe(500);
    expect(retryDelay(ctx({ status: 503, attempt: 3 }), jittered, () => 0.999999)).toBeCloseTo(1000, 2);
    for (let i = 0; i < 200; i++) {
      const d = retryDelay(ctx({ status: 503, attempt: 3 }), jittered);
      expect(d).toBeGreaterThanOrEqual(500);
      expect(d).toBeLessThanOrEqual(1000);
    }
  });

  it("a server Retry-After beats the local backoff, without jitter", () => {
    const jittered = { ...policy, jitter: true };
    expect(retryDelay(ctx({ status: 429, retryAfterMs: 3000 }), jittered, () => 0)).toBe(3000);
    expect(retryDelay(ctx({ status: 429, retryAfterMs: 10, attempt: 4 }), policy)).toBe(10);
  });

  it("uses the configured base delay", () => {
    expect(retryDelay(ctx({ status: 503, attempt: 2 }), { ...policy, baseDelayMs: 1 })).toBe(2);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2024-01-01T00:00:00Z");

  it("reads delay seconds", () => {
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("1.5", now)).toBe(1500);
  });

  it("reads an HTTP date", () => {
    expect(parseRetryAfter("Mon, 01 Jan 2024 00:00:30 GMT", now)).toBe(30_000);
  });

  it("a date in the past means no wait", () => {
    expect(parseRetryAfter("Sun, 31 Dec 2023 23:00:00 GMT", now)).toBe(0);
  });

  it("ignores absent or unreadable values", () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("", now)).toBeUndefined();
    expect(parseRetryAfter("-5", now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });

  it("reads the faucet's nextFaucetAvailable date", () => {
    expect(parseDateDelay("2024-01-01T00:01:00.000Z", now)).toBe(60_000);
    expect(parseDateDelay("not a date", now)).toBeUndefined();
  });
});
