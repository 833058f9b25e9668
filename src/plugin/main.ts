/** The entry of `pulumi-resource-blockchain`: serves the provider and prints its port, which the engine reads. */
import { engineLog, exitWhenEngineGone } from "../provider/calls";
import { writeStderr } from "../provider/engine-watch";
import { setWaitReporter } from "../settings";
import { serve } from "./server";
import { shutdownGraceMs, shutdownOnSignal } from "./shutdown";

/** Options of {@link main}. */
export interface MainOptions {
  /** Called once, soon after the first call is answered: the launcher then writes its code cache. */
  onWarm?: () => void;
}

/** Starts the plugin; exits with status 1 and one line on standard error when it cannot serve. */
export async function main(options: MainOptions = {}): Promise<void> {
  // A wait between two attempts shows in the engine's log as it happens, on the resource.
  setWaitReporter((event) => void engineLog("info", event.message));
  try {
    const { graceMs, warning } = shutdownGraceMs();
    const { port, server } = await serve({ onWarm: options.onWarm });
    process.stdout.write(`${port}\n`);
    if (warning) writeStderr(`pulumi-resource-blockchain: ${warning}\n`);
    const stop = shutdownOnSignal(server, {
      graceMs,
      exit: (code) => process.exit(code),
      log: (line) => writeStderr(`${line}\n`),
    });
    // Its engine gone (killed, or ended without stopping it), the plugin stops at once.
    exitWhenEngineGone((code) => {
      server.forceShutdown();
      process.exit(code);
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
