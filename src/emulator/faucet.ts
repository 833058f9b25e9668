import { createHash } from "crypto";
import type { FaucetSend } from "./types";

/** What one faucet send gives: 0.5 test ETH, in wei, as a decimal string. */
export const FAUCET_AMOUNT_WEI = "500000000000000000";

/** The explorer the fake transaction links point to. */
export const FAUCET_EXPLORER = "https://goerli.etherscan.example/tx/";

/** The start of the next UTC day after `now`. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** The faucet's record of sends and its per-address daily limit. */
export class FaucetLedger {
  private readonly sends: FaucetSend[] = [];

  constructor(
    private readonly seed: number,
    private readonly dailyLimit: number,
  ) {}

  /** Every send, oldest first (copies). */
  all(): FaucetSend[] {
    return this.sends.map((s) => ({ ...s }));
  }

  /**
   * Whether `address` may receive tokens at `now`: fewer than the daily limit of sends to it
   * (case-insensitively) since the start of the current UTC day.
   */
  allowed(address: string, now: Date): boolean {
    const day = now.toISOString().slice(0, 10);
    const key = address.toLowerCase();
    const today = this.sends.filter((s) => s.address.toLowerCase() === key && s.at.slice(0, 10) === day);
    return today.length < this.dailyLimit;
  }

  /** Records a send and returns it; the transaction hash is deterministic per seed and send. */
  send(address: string, now: Date): FaucetSend {
    const hash = createHash("sha256")
      .update(`blockchain-nodes-emulator/faucet/${this.seed}/${this.sends.length}/${address.toLowerCase()}`)
      .digest("hex");
    const record: FaucetSend = {
      address,
      amountSent: FAUCET_AMOUNT_WEI,
      transaction: `${FAUCET_EXPLORER}0x${hash}`,
      at: now.toISOString(),
    };
    this.sends.push(record);
    return { ...record };
  }
}
