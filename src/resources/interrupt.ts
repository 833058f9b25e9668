/**
 * Stopping the provider process while a call is in flight. The provider plugin (`../plugin/`)
 * says when it was asked to stop ({@link beginStopping}: no new send may start) and when its
 * grace for the calls in flight has run out ({@link interruptCalls}: work still running is
 * abandoned). Work that must not be half-recorded when that happens (a faucet send, which may
 * have reached the service) runs through {@link interruptible} and decides what to record. The
 * dynamic providers never call either: for them, nothing here ever fires.
 */

/** Why a piece of work was cut off, and whether it had started. */
export class CallInterrupted extends Error {
  /**
   * Builds the error. `started`: the work was running (a request may have been sent), rather
   * than refused before it began.
   */
  constructor(
    readonly reason: string,
    readonly started: boolean,
  ) {
    super(started ? `${reason} while the call was in flight` : `${reason}; the call was not started`);
    this.name = "CallInterrupted";
  }
}

let stopping: string | undefined;
let interrupted: string | undefined;
const running = new Set<(reason: string) => void>();

/** From now on, {@link interruptible} starts no new work; `reason` says why (e.g. "the provider was stopped (SIGTERM)"). */
export function beginStopping(reason: string): void {
  stopping ??= reason;
}

/** Cuts off every piece of work running through {@link interruptible}, and any started later. */
export function interruptCalls(reason: string): void {
  stopping ??= reason;
  interrupted ??= reason;
  for (const cut of [...running]) cut(interrupted);
}

/**
 * Runs `work` unless the process is stopping (then throws a {@link CallInterrupted} with
 * `started: false`, without calling it), and settles like it, unless {@link interruptCalls} comes
 * first: then it rejects at once with a {@link CallInterrupted} with `started: true` (the work
 * itself is abandoned, not awaited).
 */
export async function interruptible<T>(work: () => Promise<T>): Promise<T> {
  if (stopping !== undefined) throw new CallInterrupted(stopping, false);
  let cut: (reason: string) => void = () => undefined;
  const cutOff = new Promise<never>((_resolve, reject) => {
    cut = (reason) => reject(new CallInterrupted(reason, true));
  });
  running.add(cut);
  try {
    return await Promise.race([work(), cutOff]);
  } finally {
    running.delete(cut);
  }
}
