/**
 * A bounded first-in, first-out record: once `capacity` items are held, each new item drops the
 * oldest one. {@link total} counts every item ever pushed (since creation or the last
 * {@link clear}), so a reader can tell how many were dropped.
 */
export class Ring<T> {
  private items: T[] = [];
  private start = 0;
  private pushed = 0;

  /** `capacity` is a whole number `>= 0`; `0` keeps nothing but still counts. */
  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 0) {
      throw new RangeError(`ring capacity must be a whole number >= 0, got ${String(capacity)}`);
    }
  }

  /** Adds an item, dropping the oldest one when full. */
  push(item: T): void {
    this.pushed++;
    if (this.capacity === 0) return;
    if (this.items.length < this.capacity) {
      this.items.push(item);
      return;
    }
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.capacity;
  }

  /** The items held, oldest first. */
  toArray(): T[] {
    return [...this.items.slice(this.start), ...this.items.slice(0, this.start)];
  }

  /** How many items are held (at most {@link capacity}). */
  get size(): number {
    return this.items.length;
  }

  /** How many items were ever pushed (since creation or the last {@link clear}). */
  get total(): number {
    return this.pushed;
  }

  /** Drops every item and resets {@link total}. */
  clear(): void {
    this.items = [];
    this.start = 0;
    this.pushed = 0;
  }
}
