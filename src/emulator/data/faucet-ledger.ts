import { DEFAULT_FAUCET_CHAIN } from "../../model";
import { seedHash } from "./derive";
import { Ring } from "./ring";

/** What one faucet send gives: 0.5 test ETH, in wei, as a decimal string. */
export const FAUCET_AMOUNT_WEI = "500000000000000000";

/** The explorer the fake transaction links of a chain point to (`https://goerli.etherscan.example/tx/`). */
export function faucetExplorer(chain: string): string {
  return `https://${chain}.etherscan.example/tx/`;
}

/** One successful faucet send, as recorded by the emulator. */
export interface FaucetSend {
  /** The address as sent by the client. */
  address: string;
  /** The chain whose faucet sent it (`goerli`, `sepolia`, ...). */
  chain: string;
  /** Amount in wei, as a decimal string (the wire carries a JSON number). */
  amountSent: string;
  /** Link to the (fake) transaction. */
  transaction: string;
  /** When it was sent (ISO 8601, from the `now` clock). */
  at: string;
}

/** Every faucet send ever made, counted; these counts are never dropped. */
export interface FaucetSendCounts {
  /** Number of successful sends. */
  total: number;
  /** Number of successful sends per address, keyed by the address in lower case. */
  byAddress: Record<string, number>;
}

/** The start of the next UTC day after `now`. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** Sends to one address (keyed by its lower-case form): all time, and per chain and UTC day. */
interface AddressCount {
  total: number;
  /** Keyed by {@link dayKey}. */
  byDay: Map<string, number>;
}

/**
 * The faucet's record of sends and its daily limit per chain and address.
 *
 * The full records ({@link FaucetSend}) are kept in a bounded ring of the last `capacity` sends.
 * The counts (total, per address, per address, chain and UTC day) are kept apart and are never
 * dropped: the daily limit and {@link counts} stay exact however many sends the ring has lost.
 */
export class FaucetLedger {
  private readonly recent: Ring<FaucetSend>;
  private readonly perAddress = new Map<string, AddressCount>();
  private sent = 0;

  constructor(
    private readonly seed: number,
    private readonly dailyLimit: number,
    capacity: number,
  ) {
    this.recent = new Ring(capacity);
  }

  /** The retained sends (the last `capacity` ones), oldest first (copies). */
  all(): FaucetSend[] {
    return this.recent.toArray().map((s) => ({ ...s }));
  }

  /** Every send counted: the total and the number per address (lower-case), never dropped. */
  counts(): FaucetSendCounts {
    const byAddress: Record<string, number> = {};
    for (const [address, count] of this.perAddress) byAddress[address] = count.total;
    return { total: this.sent, byAddress };
  }

  /** How many sends went to `address` (case-insensitively), ever, on every chain. */
  countFor(address: string): number {
    return this.perAddress.get(address.toLowerCase())?.total ?? 0;
  }

  /**
   * Whether `address` may receive tokens of `chain` (default `goerli`) at `now`: fewer than the
   * daily limit of sends to it (case-insensitively) on that chain on the UTC day of `now`. Each
   * chain has its own limit.
   */
  allowed(address: string, now: Date, chain: string = DEFAULT_FAUCET_CHAIN): boolean {
    const today = this.perAddress.get(address.toLowerCase())?.byDay.get(dayKey(chain, now)) ?? 0;
    return today < this.dailyLimit;
  }

  /**
   * Records a send of `chain` (default `goerli`) and returns it; the transaction hash is
   * deterministic per seed and send.
   */
  send(address: string, now: Date, chain: string = DEFAULT_FAUCET_CHAIN): FaucetSend {
    const key = address.toLowerCase();
    const hash = seedHash("faucet", this.seed, this.sent, key);
    const record: FaucetSend = {
      address,
      chain,
      amountSent: FAUCET_AMOUNT_WEI,
      transaction: `${faucetExplorer(chain)}0x${hash}`,
      at: now.toISOString(),
    };
    this.sent++;
    let count = this.perAddress.get(key);
    if (!count) {
      count = { total: 0, byDay: new Map() };
      this.perAddress.set(key, count);
    }
    count.total++;
    const day = dayKey(chain, now);
    count.byDay.set(day, (count.byDay.get(day) ?? 0) + 1);
    this.recent.push(record);
    return { ...record };
  }
}

/** The key of one chain's UTC day of `now`. */
function dayKey(chain: string, now: Date): string {
  return `${chain} ${now.toISOString().slice(0, 10)}`;
}
