/**
 * Errors of the provider methods as the user sees them: one clear message, no stack trace.
 *
 * The engine shows a failed provider call as the error's message, on the resource. Pulumi's
 * dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`) also prints every error thrown
 * by `check`, `diff`, `read` and `delete` to its stderr as `${error}: ${error.stack}`, and the
 * engine shows that text again, with the trace, under the stack. Every message of this package
 * already names the operation, the resource and what to do, so the second copy only repeats it
 * with frames of the provider's internals.
 */

/** How long a muted line is waited for, ms (the host prints it right after the call fails). */
const MUTE_FOR_MS = 10_000;

/** The exact lines the host is about to print for errors thrown here. */
const muted = new Set<string>();
let installed = false;

/** Lets `console.error` drop the host's copy of an error thrown here; prints everything else. */
function installFilter(): void {
  if (installed) return;
  installed = true;
  const print = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    if (args.length === 1 && typeof args[0] === "string" && muted.delete(args[0])) return;
    print(...args);
  };
}

/**
 * Makes an error thrown to the dynamic-provider host quiet: its stack becomes its first line
 * (`name: message`, no frames), and the host's copy of it on stderr is dropped (see above).
 * The error object, its class, message and fields are kept. Returns the error.
 */
export function quiet(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  error.stack = `${error.name}: ${error.message}`;
  installFilter();
  const line = `${error}: ${error.stack}`;
  muted.add(line);
  setTimeout(() => muted.delete(line), MUTE_FOR_MS).unref();
  return error;
}

/** A provider method whose errors are made {@link quiet}. */
export function quietly<A extends unknown[], R>(
  method: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await method(...args);
    } catch (error) {
      throw quiet(error);
    }
  };
}
