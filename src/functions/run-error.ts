import * as pulumi from "@pulumi/pulumi";
import { isApiError, type ApiErrorKind } from "../api";
import { SettingsError } from "../settings";
import { WaitTimeoutError } from "./wait";

/**
 * The kinds of service error that are the program's to fix (its inputs, its key, its ids), not a
 * fault of the service or the network: they end a program with one clear message.
 */
export const EXPECTED_API_ERROR_KINDS: readonly ApiErrorKind[] = [
  "invalid_input",
  "unauthorized",
  "forbidden",
  "not_found",
  "validation",
];

/** Whether `error` is an expected failure: a missing setting, a refused input, key or id, a wait that timed out. */
export function isExpectedFailure(error: unknown): error is Error {
  if (error instanceof SettingsError || error instanceof WaitTimeoutError) return true;
  return isApiError(error) && EXPECTED_API_ERROR_KINDS.includes(error.kind);
}

/**
 * One error object per message: the engine's language host reports an error object once, so the
 * same failure met by several function calls of one program (a missing key, a refused key) is
 * printed once.
 */
const thrown = new Map<string, pulumi.RunError>();
/** Messages remembered at most (a long-running script forgets the oldest). */
const MAX_REMEMBERED = 100;

/**
 * `error` as the functions throw it. An expected failure ({@link isExpectedFailure}) becomes a
 * `pulumi.RunError` with the same message: the engine prints that message alone, without the
 * "unhandled exception" banner and stack trace, and ends the program. Its `name` is the original
 * error's (`SettingsError`, `UnauthorizedError`, ...), and its `cause` the original error, with its
 * `kind`, `code` and fields. Anything else (a bug, an unreachable or failing service) is returned
 * as it is, trace included.
 */
export function asRunError(error: unknown): unknown {
  if (!isExpectedFailure(error)) return error;
  const known = thrown.get(error.message);
  if (known) return known;
  const runError = new pulumi.RunError(error.message, { cause: error });
  runError.name = error.name;
  // The message is the whole report: the trace would point into this package, not at the program.
  runError.stack = `${error.name}: ${error.message}`;
  if (thrown.size >= MAX_REMEMBERED) thrown.delete(thrown.keys().next().value as string);
  thrown.set(error.message, runError);
  return runError;
}

/** Runs `body`, throwing its expected failures as a `pulumi.RunError` ({@link asRunError}). */
export async function failingQuietly<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw asRunError(error);
  }
}
