/** A bounded first-in, first-out record: when full, each push drops the oldest item; `total` counts every push. */
export class Ring<T> {
  private items: T[] = [];
  private start = 0;
  private pushed = 0;

  /** `capacity`: a whole number `>= 0` (checked by the options); `0` keeps nothing but still counts. */
  constructor(readonly capacity: number) {}

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

  get size(): number {
    return this.items.length;
  }

  /** Items ever pushed since creation or the last {@link clear}. */
  get total(): number {
    return this.pushed;
  }

  clear(): void {
    this.items = [];
    this.start = 0;
    this.pushed = 0;
  }
}
