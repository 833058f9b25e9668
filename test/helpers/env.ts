/** The environment in tests: variables changed for a block of tests and put back after it. */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

/**
 * Sets the variables of `values` (undefined: unset) before the tests of the enclosing block
 * (`each`: before every test, undoing what the test before changed) and puts them back as they were.
 */
export function withEnv(
  values: Record<string, string | undefined>,
  lifecycle: { each?: boolean } = {},
): void {
  const saved = Object.keys(values).map((name) => [name, process.env[name]] as const);
  const set = (entries: ReadonlyArray<readonly [string, string | undefined]>) => {
    for (const [name, value] of entries) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  (lifecycle.each ? beforeEach : beforeAll)(() => set(Object.entries(values)));
  afterAll(() => set(saved));
}

/**
 * A fresh temporary folder (named `prefix`…) for the tests of the enclosing block (`each`: for every
 * test), removed after them. Returns its accessor.
 */
export function withTempDir(prefix: string, lifecycle: { each?: boolean } = {}): () => string {
  let dir = "";
  (lifecycle.each ? beforeEach : beforeAll)(
    () => void (dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))),
  );
  (lifecycle.each ? afterEach : afterAll)(() => fs.rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}

/**
 * A fresh faucet journal folder (BLOCKCHAIN_FAUCET_JOURNAL_DIR) for the tests of the enclosing block
 * (`each`: for every test), removed after them. Returns its accessor.
 */
export function withJournalDir(lifecycle: { each?: boolean } = {}): () => string {
  withEnv({ BLOCKCHAIN_FAUCET_JOURNAL_DIR: undefined });
  const dir = withTempDir("faucet-journal-", lifecycle);
  (lifecycle.each ? beforeEach : beforeAll)(() => void (process.env.BLOCKCHAIN_FAUCET_JOURNAL_DIR = dir()));
  return dir;
}
