/**
 * The command line of a script (`reliability.ts`, `soak.ts`), read argument by argument: an
 * option's value is after its `=` (`--seed=3`) or is the next argument (`--seed 3`).
 */

/** The arguments in turn; {@link CommandLine.value} reads the value of the one at hand. */
export class CommandLine implements Iterable<string> {
  private i = 0;

  constructor(private readonly argv: readonly string[]) {}

  /** Each argument in order, less those read as an option's value. */
  *[Symbol.iterator](): Iterator<string> {
    for (; this.i < this.argv.length; this.i++) yield this.argv[this.i];
  }

  /**
   * The value of the option at hand, `name`: what follows its first `=`, or else the next
   * argument (then skipped by the iteration); throws `<name> needs a value` when there is none.
   */
  value(name: string): string {
    const a = this.argv[this.i];
    const eq = a.indexOf("=");
    if (eq >= 0) return a.slice(eq + 1);
    const v = this.argv[++this.i];
    if (v === undefined) throw new Error(`${name} needs a value`);
    return v;
  }
}
