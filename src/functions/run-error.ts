import * as pulumi from "@pulumi/pulumi";
import { isApiError } from "../api";
import { SettingsError } from "../settings";
import { WaitTimeoutError } from "./wait";

/**
 * Whether `error` is an expected failure, one a user can cause or meet: a missing or refused
 * setting, a refused input, key or id, a wait that timed out, and every error of the service's
 * client (unreachable host, refused connection, timeout, 5xx, 429 after retries, a wrong API URL).
 * Each already says what happened and what to do; only a bug is not expected.
 */
export function isExpectedFailure(error: unknown): error is Error {
  if (error instanceof SettingsError || error instanceof WaitTimeoutError) return true;
  return isApiError(error);
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
 * `kind`, `code` and fields. Anything else (a bug) is returned as it is, trace included.
 */
export function asRunError(error: unknown): unknown {
  if (!isExpectedFailure(error)) return error;
  const known = thrown.get(error.message);
  if (known) return known;
  quietLateHandling();
  const runError = new pulumi.RunError(error.message, { cause: error });
  runError.name = error.name;
  // The message is the whole report: the trace would point into this package, not at the program.
  runError.stack = `${error.name}: ${error.message}`;
  if (thrown.size >= MAX_REMEMBERED) thrown.delete(thrown.keys().next().value as string);
  thrown.set(error.message, runError);
  return runError;
}

/** Whether the `rejectionHandled` listener of {@link quietLateHandling} is installed. */
let listening = false;

/**
 * No `PromiseRejectionHandledWarning` for the errors thrown here. A function's Output that fails
 * before the program's exports are awaited (an invalid filter fails at once) is reported by the
 * language host's `unhandledRejection` handler, which prints its message; when the export is
 * awaited later, Node.js warns that the rejection "was handled asynchronously", unless a
 * `rejectionHandled` listener takes it. This listener takes only the rejections whose reason is a
 * `RunError` of this module; for any other it emits Node's own warning, as Node would.
 */
function quietLateHandling(): void {
  if (listening) return;
  listening = true;
  const ours = (reason: unknown) => [...thrown.values()].some((e) => e === reason);
  process.on("rejectionHandled", (promise: Promise<unknown>) => {
    promise.catch((reason: unknown) => {
      if (!ours(reason)) {
        process.emitWarning("Promise rejection was handled asynchronously", "PromiseRejectionHandledWarning");
      }
    });
  });
}

/** Runs `body`, throwing its expected failures as a `pulumi.RunError` ({@link asRunError}). */
export async function failingQuietly<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw asRunError(error);
  }
}
