/**
 * FaucetDrip's create never sends twice: an outcome that may have been processed is recorded as
 * `unknown` (so the next `up` does not send again), and a send interrupted by a killed engine is
 * caught by the journal.
 */
import { mkdtempSync, readdirSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import type { Fault } from "../../src/emulator";
import { setProviderConfig } from "../../src/resources/provider-config";
import { createFaucetDrip } from "../../src/resources/faucet-drip-provider";
import { beginSend, journalDir } from "../../src/resources/faucet-journal";
import { withEmulator } from "../helpers/emulator";

const emulator = withEmulator({ quiet: true });
let journal: string;
const savedJournalEnv = process.env.BLOCKCHAIN_FAUCET_JOURNAL_DIR;
let addressCounter = 0x1000;

/** A fresh lower-case address for each test (the faucet's daily limit is per address). */
function address(): string {
  addressCounter++;
  return `0x${addressCounter.toString(16).padStart(40, "0")}`;
}

beforeAll(() => {
  setProviderConfig((key) =>
    key === "blockchain:apiUrl"
      ? emulator().url
      : key === "blockchain:apiKey"
        ? emulator().apiKey
        : undefined,
  );
});
beforeEach(() => {
  journal = mkdtempSync(join(tmpdir(), "faucet-journal-"));
  process.env.BLOCKCHAIN_FAUCET_JOURNAL_DIR = journal;
});
afterEach(() => {
  rmSync(journal, { recursive: true, force: true });
});
afterAll(() => {
  if (savedJournalEnv === undefined) delete process.env.BLOCKCHAIN_FAUCET_JOURNAL_DIR;
  else process.env.BLOCKCHAIN_FAUCET_JOURNAL_DIR = savedJournalEnv;
  setProviderConfig(undefined);
});

const faucetPath = { method: "POST", path: "/v1/faucet/" };

describe("FaucetDrip create", () => {
  it("a confirmed send is recorded as sent, and the journal is left empty", async () => {
    const to = address();
    const { outs } = await createFaucetDrip({ address: to });
    expect(outs.outcome).toBe("sent");
    expect(outs.amountSent).toMatch(/^[0-9]+$/);
    expect(outs.note).toBe("");
    expect(emulator().faucetSendCounts().byAddress[to]).toBe(1);
    expect(readdirSync(journal)).toEqual([]);
  });

  const processedThenUnreadable: [string, Fault][] = [
    ["a response lost after processing", { drop: true, after: "processing", match: faucetPath }],
    ["a 504 gateway page after processing", { status: 504, after: "processing", match: faucetPath }],
    ["an HTML 200", { malformed: "html", match: faucetPath }],
    ["truncated JSON", { malformed: "truncated-json", match: faucetPath }],
    ["a non-integer amount", { malformed: "non-integer-amount", match: faucetPath }],
    ["no transaction", { malformed: "missing-transaction", match: faucetPath }],
  ];
  it.each(processedThenUnreadable)(
    "%s: recorded as unknown, with a note; never sent again",
    async (_what, fault) => {
      const to = address();
      emulator().enqueueFaults([fault]);
      const { id, outs } = await createFaucetDrip({ address: to });
      expect(outs.outcome).toBe("unknown");
      expect(outs.amountSent).toBe("");
      expect(outs.note).toMatch(/may or may not have been sent/);
      expect(outs.note).toMatch(/pulumi up --replace/);
      expect(id).toContain(to);
      // The service did send once; nothing was sent again.
      expect(emulator().faucetSendCounts().byAddress[to]).toBe(1);
      expect(readdirSync(journal)).toEqual([]);
    },
  );

  it("a clear refusal fails the create; nothing is recorded", async () => {
    const to = address();
    await createFaucetDrip({ address: to });
    await expect(createFaucetDrip({ address: to })).rejects.toThrow(/429/);
    expect(emulator().faucetSendCounts().byAddress[to]).toBe(1);
    expect(readdirSync(journal)).toEqual([]);
  });

  it("a send left in flight by another (killed) process is not repeated: recorded as unknown", async () => {
    const to = address();
    // What a killed run leaves behind: an entry written by another process.
    const dir = journalDir();
    expect(dir).toBe(journal);
    beginSend(emulator().url, to);
    const [file] = readdirSync(journal);
    const fs = await import("fs");
    const entry = JSON.parse(fs.readFileSync(join(journal, file), "utf8"));
    fs.writeFileSync(join(journal, file), JSON.stringify({ ...entry, process: "another-process" }));

    const { outs } = await createFaucetDrip({ address: to });
    expect(outs.outcome).toBe("unknown");
    expect(outs.note).toMatch(/interrupted/);
    expect(emulator().faucetSendCounts().byAddress[to] ?? 0).toBe(0);
    // The entry is consumed: an explicit replace sends.
    expect(readdirSync(journal)).toEqual([]);
    const again = await createFaucetDrip({ address: to });
    expect(again.outs.outcome).toBe("sent");
    expect(emulator().faucetSendCounts().byAddress[to]).toBe(1);
  });

  it("an entry older than the faucet's window does not block a send", async () => {
    const to = address();
    beginSend(emulator().url, to, Date.now() - 25 * 3600_000);
    const fs = await import("fs");
    const [file] = readdirSync(journal);
    const entry = JSON.parse(fs.readFileSync(join(journal, file), "utf8"));
    fs.writeFileSync(join(journal, file), JSON.stringify({ ...entry, process: "another-process" }));
    const { outs } = await createFaucetDrip({ address: to });
    expect(outs.outcome).toBe("sent");
  });
});
