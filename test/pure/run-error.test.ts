/** Failures users meet become one quiet pulumi.RunError (same message, the original as cause); bugs don't. */
import * as pulumi from "@pulumi/pulumi";
import { createApiError, type ApiErrorKind } from "../../src/api/errors";
import { asRunError, isExpectedFailure } from "../../src/functions/program";
import { WaitTimeoutError } from "../../src/functions/wait";
import { SettingsError } from "../../src/settings";

const apiError = (kind: ApiErrorKind, detail = `a ${kind} failure`) =>
  createApiError({ kind, operation: "getNodes", code: kind, detail });

describe("asRunError", () => {
  test.each([
    "invalid_input",
    "unauthorized",
    "forbidden",
    "not_found",
    "validation",
    "unavailable",
    "network",
    "timeout",
    "rate_limited",
    "conflict",
    "invalid_response",
    "unknown",
  ] as const)("%s: a RunError with the message, the name and the original as cause, no trace", (kind) => {
    const original = apiError(kind, `expected ${kind}`);
    const e = asRunError(original) as pulumi.RunError;
    expect(pulumi.RunError.isInstance(e)).toBe(true);
    expect(e.message).toBe(original.message);
    expect(e.name).toBe(original.name);
    expect(e.cause).toBe(original);
    expect(e.stack).toBe(`${original.name}: ${original.message}`);
  });

  test("a missing setting and a wait timeout are expected too; a bug is returned as it is", () => {
    expect(isExpectedFailure(new SettingsError("No API key for the blockchain node service."))).toBe(true);
    expect(isExpectedFailure(new WaitTimeoutError("getNodes: timed out after 1 s"))).toBe(true);
    expect(pulumi.RunError.isInstance(asRunError(new SettingsError("No API URL (pure test)")))).toBe(true);
    const bug = new TypeError("Cannot read properties of undefined");
    expect(asRunError(bug)).toBe(bug);
    expect(asRunError("a string")).toBe("a string");
  });

  test("the same message gives the same object, so the language host prints it once", () => {
    const a = asRunError(new SettingsError("same message (pure test)"));
    const b = asRunError(new SettingsError("same message (pure test)"));
    const c = asRunError(new SettingsError("another message (pure test)"));
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });
});
