/**
 * The entry of `pulumi-resource-blockchain`: serves the provider and prints its port, the first
 * line of standard output, which is how the engine finds it. It stops when the engine kills it,
 * or on SIGTERM/SIGINT after a bounded grace for the calls in flight (see `./shutdown.ts`).
 */
import { engineLog } from "../provider";
import { setWaitReporter } from "../settings";
import { serve } from "./server";
import { shutdownGraceMs, shutdownOnSignal } from "./shutdown";

/** Options of {@link main}. */
export interface MainOptions {
  /**
   * Called once, soon after the first resource or function call is answered, when the code a
   * first read needs has been compiled: the launcher (`bin/pulumi-resource-blockchain`) then
   * writes its code cache.
   */
  onWarm?: () => void;
}

/** Starts the plugin; exits with status 1 and one line on standard error when it cannot serve. */
export async function main(options: MainOptions = {}): Promise<void> {
  // A wait between two attempts shows in the engine's log as it happens, on the resource.
  setWaitReporter((event) => engineLog("info", event.message));
  try {
    const { graceMs, warning } = shutdownGraceMs();
    const { port, server } = await serve({ onWarm: options.onWarm });
    process.stdout.write(`${port}\n`);
    if (warning) process.stderr.write(`pulumi-resource-blockchain: ${warning}\n`);
    const stop = shutdownOnSignal(server, {
      graceMs,
      exit: (code) => process.exit(code),
      log: (line) => process.stderr.write(`${line}\n`),
    });
    process.on("SIGTERM", () => stop("SIGTERM"));
    process.on("SIGINT", () => stop("SIGINT"));
  } catch (err) {
    process.stderr.write(
      `pulumi-resource-blockchain: cannot serve: ${err instanceof Error ? err.message : err}\n`,
    );
    process.exit(1);
  }
}
