import * as pulumi from "@pulumi/pulumi";
import { isApiError, type NodeServiceClient, type RetryWait } from "../api";
import {
  appendHint,
  ConnectionArgs,
  findSettings,
  setWaitReporter,
  settingFix,
  withClient,
} from "../settings";
import { readStackConfig } from "./stack-config";

/**
 * A wait between two attempts, in the program's log as it happens (the engine shows it in the
 * CI log at once): "getNodes: the service answered 429; waiting 20 s before attempt 2 of 5".
 * Only under an engine: outside a Pulumi run (a script, unit tests with mocks) there is no log to
 * write to, and `pulumi.log` would print to the console instead.
 */
function logWait(event: RetryWait): void {
  if (!pulumi.runtime.hasEngine()) return;
  pulumi.log.info(event.message).catch(() => undefined);
}

/** Which setting a refusal of the client's own checks is about, by the error's code. */
const REFUSED_SETTING: Record<string, "apiUrl" | "apiKey"> = {
  invalid_api_url: "apiUrl",
  invalid_api_key: "apiKey",
};

/**
 * `withClient` for the functions: the program's stack config as the config reader, and a URL or
 * key refused by the client's checks (plain `http://` to a remote host, a key no header can
 * carry) says where it came from and how to replace it there, as a refused key (401) already does:
 * "It came from stack config blockchain:apiUrl: set the right one with `pulumi config set …`".
 */
export async function withFunctionClient<T>(
  args: ConnectionArgs,
  use: (client: NodeServiceClient) => Promise<T>,
): Promise<T> {
  setWaitReporter(logWait);
  try {
    return await withClient(args, readStackConfig, use);
  } catch (error) {
    const setting = isApiError(error) ? REFUSED_SETTING[error.code] : undefined;
    const found = setting && findSettings(args, readStackConfig)[setting];
    if (!setting || !found) throw error;
    const fix = settingFix(setting, found.source);
    throw appendHint(error as Error, `${fix.charAt(0).toUpperCase()}${fix.slice(1)}.`);
  }
}
