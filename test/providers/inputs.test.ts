/** Careless inputs are refused before any request, with an error that never quotes a misplaced credential. */
import { readdirSync } from "fs";
import { checkFaucetDrip, createFaucetDrip } from "../../src/provider/faucet-drip";
import { checkNetwork, createNetwork } from "../../src/provider/network";
import { renderings } from "../helpers/client";
import { withEmulator } from "../helpers/emulator";
import { withJournalDir } from "../helpers/env";

const emulator = withEmulator({ quiet: true });
const journal = withJournalDir();

const requestsSoFar = () => emulator().requestStats().total;

describe("check never echoes a credential given in the wrong place", () => {
  it("the API key as the network id, the project, inside the API URL, or swapped with it", async () => {
    const key = emulator().apiKey;
    const secrets = [key, emulator().adminKey];
    for (const news of [
      { networkId: key },
      { networkId: "NW-100-000-1", project: key },
      { networkId: emulator().adminKey },
      { networkId: "NW-100-000-1", apiUrl: `http://api.example.com/${key}`, apiKey: key },
      { networkId: "NW-100-000-1", apiUrl: key, apiKey: "https://api.example.com" },
    ]) {
      const { failures } = await checkNetwork({}, news);
      expect(failures.length).toBeGreaterThan(0);
      for (const f of failures) for (const s of secrets) expect(f.reason).not.toContain(s);
    }
    const { failures } = await checkFaucetDrip({}, { address: key });
    expect(failures[0].reason).toMatch(/not shown: it may hold a credential/);
    expect(failures[0].reason).not.toContain(key);
  });

  it("a mistyped address is still shown so it can be fixed, with its EIP-55 form; one with no 0x is named so", async () => {
    const { failures } = await checkFaucetDrip({}, { address: "0x52908400098527886e0F7030069857D2E4169EE7" });
    expect(failures[0].property).toBe("address");
    expect(failures[0].reason).toContain("0x52908400098527886e0F7030069857D2E4169EE7");
    expect(failures[0].reason).toMatch(/EIP-55.*0x52908400098527886E0F7030069857D2E4169EE7/);
    const bare = await checkFaucetDrip({}, { address: "52908400098527886E0F7030069857D2E4169EE7" });
    expect(bare.failures[0]).toEqual({
      property: "address",
      reason: expect.stringMatching(/\b0x\b.*\b40\b/),
    });
  });
});

describe("invalid inputs send nothing and fail clearly", () => {
  const creds = () => ({ apiUrl: emulator().url, apiKey: emulator().apiKey });

  it("createNetwork with an empty name or a bad project sends nothing", async () => {
    const before = requestsSoFar();
    await expect(createNetwork({ networkId: "NW-100-000-1", name: "", ...creds() })).rejects.toThrow(
      /nothing was sent/,
    );
    await expect(createNetwork({ networkId: "NW-100-000-1", project: "PR-x", ...creds() })).rejects.toThrow(
      /project/,
    );
    expect(requestsSoFar()).toBe(before);
  });

  it("a non-string apiKey or apiUrl is named as such, not reported as missing", async () => {
    const e = await createNetwork({
      networkId: "NW-100-000-1",
      apiUrl: emulator().url,
      apiKey: 12345 as never,
    }).catch((x) => x);
    expect(e).toBeInstanceOf(Error);
    expect(e.message).toMatch(/apiKey: given as number/);
    expect(e.name).toBe("SettingsError");
  });

  it("createFaucetDrip with a non-string or credential address: a clear error, no journal entry, no request", async () => {
    const before = requestsSoFar();
    for (const address of [42, undefined, emulator().apiKey]) {
      const e = await createFaucetDrip({ address: address as never, ...creds() }).catch((x) => x);
      expect(e).toBeInstanceOf(Error);
      expect(e).not.toBeInstanceOf(TypeError);
      expect(e.message).toMatch(/address/);
      for (const text of renderings(e)) expect(text).not.toContain(emulator().apiKey);
    }
    expect(readdirSync(journal())).toEqual([]);
    expect(requestsSoFar()).toBe(before);
  });
});
