import { invalidInput, isApiError } from "../api/errors";
import { DEFAULT_FAUCET_CHAIN, checkAddress, checkFaucetChain, unknownProperties } from "../model/rules";
import { UNKNOWN, withClient } from "../settings";
import { Checked, checkConnection, describeError, toFailures, UncheckedInputs } from "./checks";
import { beginSend, finishSend } from "./faucet-journal";
import { CallInterrupted, interruptible, readProviderConfig, resourceLabel } from "./calls";
import { diffOf, inputNames, outputsOf, setting } from "./table";
import type { Inputs, Outputs, PropertyTable } from "./table";

/** The properties of a FaucetDrip (each row's doc is the input's doc; `@output` the output's, where it differs). */
export const FAUCET_DRIP_PROPERTIES = {
  /**
   * The address to send test tokens to: 0x and 40 hex digits; mixed case must pass EIP-55.
   * @output The address tokens were sent to.
   */
  address: { type: "string", input: "required", output: "required", change: "replace" },
  /**
   * The test chain whose faucet sends the tokens (`POST /v1/faucet/{chain}`); default `goerli`,
   * the chain of the service's interface. The real service serves the chains its public reference
   * lists (sepolia and hoodi among others). A lowercase letter, then lowercase letters, digits
   * and hyphens, up to 63 characters. A change replaces the resource (a new request); leaving it
   * out is the same as `goerli`.
   * @output The chain whose faucet was asked. Absent on drips recorded before `chain` existed: those
   * asked `goerli`.
   */
  chain: {
    type: "string",
    input: "optional",
    output: "optional",
    change: "replace",
    absentIs: DEFAULT_FAUCET_CHAIN,
  },
  /**
   * `sent`, or `unknown` when the request reached the service (or may have) and no readable answer
   * came back: the tokens may have been sent, and they are never sent again automatically. See
   * `note` for how to check and how to send again on purpose.
   */
  outcome: { type: "string", values: ["sent", "unknown"], output: "required" },
  /** Amount sent, in wei, as an exact decimal string; `""` when the outcome is unknown. */
  amountSent: { type: "string", output: "required" },
  /** Link to the transaction; `""` when the outcome is unknown. */
  transaction: { type: "string", output: "required" },
  /** When the outcome is unknown: what happened and what to do; `""` otherwise. */
  note: { type: "string", output: "required" },
  /** API URL; defaults to stack config `blockchain:apiUrl`, then `BLOCKCHAIN_API_URL`. */
  apiUrl: setting("apiUrl", undefined, "state"),
  /** API key, always stored as a secret; defaults to `blockchain:apiKey`, then `BLOCKCHAIN_API_KEY`. */
  apiKey: setting("apiKey", undefined, "state"),
  /**
   * Per-attempt timeout of the faucet request, ms (default 20000); defaults to stack config
   * `blockchain:timeoutMs`, then `BLOCKCHAIN_TIMEOUT_MS`. A change needs no action.
   */
  timeoutMs: setting("timeoutMs", undefined, undefined),
  /**
   * Overall deadline of the faucet request, ms (default 60000); defaults to stack config
   * `blockchain:deadlineMs`, then `BLOCKCHAIN_DEADLINE_MS`. A change needs no action.
   */
  deadlineMs: setting("deadlineMs", undefined, undefined),
  /**
   * Retries of the faucet request, only when the service clearly did not process it (default 4);
   * defaults to stack config `blockchain:maxRetries`, then `BLOCKCHAIN_MAX_RETRIES`.
   */
  maxRetries: setting("maxRetries", undefined, undefined),
} as const satisfies PropertyTable;

/** Inputs of the FaucetDrip resource as the provider receives them. */
export type FaucetDripInputs = Inputs<typeof FAUCET_DRIP_PROPERTIES>;
/** Outputs of the FaucetDrip resource. */
export type FaucetDripOutputs = Outputs<typeof FAUCET_DRIP_PROPERTIES>;
const FAUCET_DRIP_INPUT_NAMES = inputNames(FAUCET_DRIP_PROPERTIES);

/** How a faucet request ended: `sent`, or `unknown` (the tokens may have been sent; never sent again automatically). */
export type FaucetOutcome = FaucetDripOutputs["outcome"];

/** `check`: the address (EIP-55 when mixed case), the chain when given, and the connection settings. */
export async function checkFaucetDrip(_olds: unknown, news: UncheckedInputs<FaucetDripInputs>) {
  const problems = [
    ...unknownProperties(news as Record<string, unknown>, FAUCET_DRIP_INPUT_NAMES),
    news.address === UNKNOWN ? undefined : checkAddress("address", news.address),
    news.chain === undefined || news.chain === UNKNOWN ? undefined : checkFaucetChain("chain", news.chain),
  ].filter((p) => p !== undefined);
  const failures = toFailures(problems, news);
  failures.push(...(await checkConnection(resourceLabel("FaucetDrip").operation, news, failures)));
  return { inputs: news as FaucetDripInputs, failures } satisfies Checked<FaucetDripInputs>;
}

/** `diff`: a new address or chain replaces (a new request); an absent chain counts as `goerli` on both sides. */
export async function diffFaucetDrip(_id: string, olds: FaucetDripOutputs, news: FaucetDripInputs) {
  return diffOf(FAUCET_DRIP_PROPERTIES, olds, news);
}

/** The note recorded with an unknown outcome: how to check, and how to send again on purpose. */
export function unknownOutcomeNote(address: string, why: string): string {
  return (
    `The faucet request for ${address} ${why}, so the tokens may or may not have been sent. It is not sent again automatically. ` +
    `Check the address's balance or the faucet's transactions in a block explorer; if nothing arrived, send again on purpose with ` +
    "`pulumi up --replace <urn of this FaucetDrip>` (or after the faucet's daily window has passed)."
  );
}

/** What a faucet request records. */
type RecordedOutputs = "outcome" | "amountSent" | "transaction" | "note";

/**
 * `create`: requests test tokens once. When the request may have been processed without a
 * readable answer, an interrupted run's journal entry is found, or the plugin is stopped
 * mid-send, records `outcome: "unknown"`: failing would make the next `up` send again.
 */
export async function createFaucetDrip(inputs: FaucetDripInputs) {
  const chain = inputs.chain ?? DEFAULT_FAUCET_CHAIN;
  const drip = (id: string, recorded: Pick<FaucetDripOutputs, RecordedOutputs>) => ({
    id,
    outs: outputsOf(FAUCET_DRIP_PROPERTIES, { ...inputs, chain, ...recorded }),
  });
  const unknownOutcome = (why: string) =>
    drip(`${inputs.address}-unknown-${Date.now()}`, {
      outcome: "unknown",
      amountSent: "",
      transaction: "",
      note: unknownOutcomeNote(inputs.address, why),
    });
  // The inputs are checked before anything is written or sent; a bad one is never echoed whole.
  const problems = [checkAddress("address", inputs.address), checkFaucetChain("chain", chain)];
  const found = problems.filter((p) => p !== undefined);
  if (found.length > 0) throw invalidInput("requesting test tokens", found);
  try {
    return await withClient(inputs, readProviderConfig, async (client) => {
      const begun = beginSend(client.apiUrl, inputs.address, chain);
      if (begun.interrupted)
        return unknownOutcome(
          `was started at ${begun.startedAt} by a run that was interrupted before its answer was recorded`,
        );
      // Kept when the send was cut off: the request may have been processed.
      let keepEntry = false;
      try {
        const result = await interruptible(() =>
          client.requestTestTokens(inputs.address, chain, resourceLabel("FaucetDrip")),
        );
        // The id: the transaction hash at the end of the faucet's transaction link.
        const id = /0x[0-9a-fA-F]{16,}/.exec(result.transaction)?.[0] ?? `${inputs.address}-${Date.now()}`;
        return drip(id, { outcome: "sent", ...result, note: "" });
      } catch (err) {
        if (err instanceof CallInterrupted && err.started) {
          keepEntry = true;
          return unknownOutcome(`was under way when ${err.reason}`);
        }
        if (isApiError(err) && err.mayHaveBeenProcessed === true)
          return unknownOutcome(
            `reached the service but got no usable answer (${err.status ?? err.kind} ${err.code})`,
          );
        throw err;
      } finally {
        if (!keepEntry) finishSend(client.apiUrl, inputs.address, chain);
      }
    });
  } catch (err) {
    throw describeError(err, "requesting test tokens for", inputs.address);
  }
}

/** `read`: the recorded outcome as it is (the service cannot read a faucet request back). */
export async function readFaucetDrip(id: string, props: FaucetDripOutputs | undefined) {
  return { id, props };
}

/** `update`: nothing to send (`diff` never asks for one); keeps the outcome, takes the connection inputs. */
export async function updateFaucetDrip(_id: string, olds: FaucetDripOutputs, news: FaucetDripInputs) {
  const { apiUrl: _oldUrl, apiKey: _oldKey, ...recorded } = olds;
  return {
    outs: outputsOf(FAUCET_DRIP_PROPERTIES, { ...recorded, apiUrl: news.apiUrl, apiKey: news.apiKey }),
  };
}

/** `delete`: nothing to do: tokens that were sent cannot be returned. */
export async function deleteFaucetDrip(): Promise<void> {}
