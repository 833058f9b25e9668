import { DEFAULT_FAUCET_CHAIN } from "../../model/rules";
import { seedHash } from "./random";
import { Ring } from "./ring";

/** What one faucet send gives: 0.5 test ETH, in wei, as a decimal string. */
export const FAUCET_AMOUNT_WEI = "500000000000000000";

/** One successful faucet send, as recorded by the emulator. */
export interface FaucetSend {
  /** The address as sent by the client. */
  address: string;
  /** The chain whose faucet sent it (`goerli`, `sepolia`, ...). */
  chain: string;
  /** Amount in wei, as a decimal string (the wire carries a JSON number). */
  amountSent: string;
  /** Link to the (fake) transaction, e.g. `https://goerli.etherscan.example/tx/0x...`. */
  transaction: string;
  /** When it was sent (ISO 8601, from the `now` clock). */
  at: string;
}

/** Every faucet send ever made, counted (never dropped): the total, and per address in lower case. */
export type FaucetSendCounts = { total: number; byAddress: Record<string, number> };

/** The start of the next UTC day after `now`. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

const dayKey = (chain: string, now: Date) => `${chain} ${now.toISOString().slice(0, 10)}`;

/**
 * The faucet's sends and its daily limit per chain and address. Full records are kept in a ring of
 * the last `capacity`; the counts are kept apart and never dropped, so the limit stays exact.
 */
export class FaucetLedger {
  private readonly recent: Ring<FaucetSend>;
  /** Per lower-case address: all sends, and sends per {@link dayKey}. */
  private readonly perAddress = new Map<string, { total: number; byDay: Map<string, number> }>();
  private sent = 0;

  constructor(
    private readonly seed: number,
    private readonly dailyLimit: number,
    capacity: number,
  ) {
    this.recent = new Ring(capacity);
  }

  /** The retained sends, oldest first (copies). */
  all(): FaucetSend[] {
    return this.recent.toArray().map((s) => ({ ...s }));
  }

  counts(): FaucetSendCounts {
    const byAddress: Record<string, number> = {};
    for (const [address, count] of this.perAddress) byAddress[address] = count.total;
    return { total: this.sent, byAddress };
  }

  /** Sends to `address` (case-insensitive), ever, on every chain. */
  countFor(address: string): number {
    return this.perAddress.get(address.toLowerCase())?.total ?? 0;
  }

  /** Whether `address` is under the daily limit of `chain` on the UTC day of `now`. */
  allowed(address: string, now: Date, chain = DEFAULT_FAUCET_CHAIN): boolean {
    return (this.perAddress.get(address.toLowerCase())?.byDay.get(dayKey(chain, now)) ?? 0) < this.dailyLimit;
  }

  /** Records a send; its transaction hash is deterministic per seed and send. */
  send(address: string, now: Date, chain = DEFAULT_FAUCET_CHAIN): FaucetSend {
    const key = address.toLowerCase();
    const hash = seedHash("faucet", this.seed, this.sent, key);
    const record: FaucetSend = {
      address,
      chain,
      amountSent: FAUCET_AMOUNT_WEI,
      transaction: `https://${chain}.etherscan.example/tx/0x${hash}`,
      at: now.toISOString(),
    };
    this.sent++;
    const count = this.perAddress.get(key) ?? { total: 0, byDay: new Map<string, number>() };
    this.perAddress.set(key, count);
    count.total++;
    const day = dayKey(chain, now);
    count.byDay.set(day, (count.byDay.get(day) ?? 0) + 1);
    this.recent.push(record);
    return { ...record };
  }
}
