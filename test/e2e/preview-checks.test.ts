/** What preview refuses once, with no trace, changing nothing: plain-http URLs, wrong or no keys, import. */
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine } from "../helpers/engine";
import { emulatorConfig, EngineRun } from "../helpers/engine-run";
import { diagnostics, occurrences, programProject } from "../helpers/program-project";

const STEP_TIMEOUT = 240_000;
const NETWORK = "NW-100-000-1";
const TRACE = /^\s+at /m;

/** Only a Network; with `previewChecks:argumentUrl` set, the URL is passed as an argument. */
const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import { Network } from "pulumi-blockchain-nodes";

export = async () => {
  const config = new pulumi.Config("previewChecks");
  const network = new Network("main", { networkId: "${NETWORK}", name: "checked", apiUrl: config.get("argumentUrl") });
  return { name: network.name };
};
`;

const IMPORT_PROGRAM = `
import { Network } from "pulumi-blockchain-nodes";

export = async () => {
  const network = new Network("main", { networkId: "${NETWORK}" }, { import: "${NETWORK}" });
  return { name: network.name };
};
`;

/** getNodes and getNodesOutput with no key anywhere: a missing-config failure met twice. */
const MISSING_KEY_PROGRAM = `
import { getNodes, getNodesOutput } from "pulumi-blockchain-nodes";

export = async () => {
  const later = getNodesOutput({ network: "${NETWORK}" });
  const nodes = await getNodes({ network: "${NETWORK}" });
  return { count: nodes.length, later: later.apply((ns) => ns.length) };
};
`;

describeWithEngine()("preview catches what it can, under the real engine", () => {
  let run: EngineRun;

  afterAll(() => run?.close(), STEP_TIMEOUT);
  const emulator = withEmulator();
  beforeAll(async () => {
    run = await EngineRun.start();
  }, STEP_TIMEOUT);

  /** The text of a preview that must fail, of `code` with `config`. */
  async function failedPreview(
    name: string,
    code: string,
    config: Record<string, { value: string; secret?: boolean }>,
  ): Promise<string> {
    const stack = await run.stack(
      { stackName: name, workDir: programProject(`preview-${name}`, code) },
      config,
    );
    const text = await run.failure(name, (options) => stack.preview(options));
    expect(text).not.toMatch(TRACE);
    // The service was not changed: the network keeps its seeded name.
    expect(emulator().admin.getNetwork(NETWORK)!.name).not.toBe("checked");
    return text;
  }

  test("the trace check finds a stack trace", () => {
    expect(new Error("control").stack).toMatch(TRACE);
  });

  test(
    "a plain-http API URL fails the preview from the stack config as it does as an argument",
    async () => {
      const fromConfig = await failedPreview("config-url", PROGRAM, {
        ...emulatorConfig(emulator()),
        "blockchain:apiUrl": { value: "http://api.example.com" },
      });
      expect(
        occurrences(
          diagnostics(fromConfig),
          "The API URL from stack config is refused: the API URL uses plain http://",
        ),
      ).toBe(1);
      expect(fromConfig).toContain(
        "set the right one with `pulumi config set blockchain:apiUrl https://<api host>`",
      );

      const asArgument = await failedPreview("argument-url", PROGRAM, {
        ...emulatorConfig(emulator()),
        "previewChecks:argumentUrl": { value: "http://api.example.com" },
      });
      expect(asArgument).toMatch(/property apiUrl value .*has a problem: the API URL uses plain http:\/\//);
    },
    STEP_TIMEOUT,
  );

  test(
    "a wrong key fails the preview after one read-only request, with the fix for the stack config",
    async () => {
      const wrongKey = "wrong-key-for-preview-1234567890";
      emulator().resetRequests();
      const text = await failedPreview("wrong-key", PROGRAM, {
        ...emulatorConfig(emulator()),
        "blockchain:apiKey": { value: wrongKey, secret: true },
      });
      expect(occurrences(diagnostics(text), "The API key was refused when checked at preview")).toBe(1);
      expect(text).toMatch(/401/);
      expect(text).toContain(
        "it came from stack config blockchain:apiKey: set the right one with `pulumi config set --secret blockchain:apiKey <key>`",
      );
      expect(text).not.toContain(wrongKey);
      expect(
        emulator()
          .requests()
          .map((r) => `${r.method} ${r.route}`),
      ).toEqual(["GET /v1/nodes/"]);
    },
    STEP_TIMEOUT,
  );

  test(
    "no key: a program calling getNodes fails with the message once and the command to set it",
    async () => {
      const missing = "No API key for the blockchain node service.";
      const text = await failedPreview("missing-key", MISSING_KEY_PROGRAM, {
        "blockchain:apiUrl": { value: emulator().url },
      });
      // One diagnostic, the message alone. (The progress row echoes the diagnostic's first line.)
      const shown = text.slice(text.indexOf("Diagnostics:"), text.indexOf("Resources:"));
      expect(occurrences(shown, missing)).toBe(1);
      expect(occurrences(shown, "error:")).toBe(1);
      expect(occurrences(text, missing)).toBeLessThanOrEqual(2);
      expect(text).toContain("pulumi config set --secret blockchain:apiKey <key>");
      expect(text).not.toContain("unhandled exception");
    },
    STEP_TIMEOUT,
  );

  test(
    "the import option fails with the way that works (networkId), once",
    async () => {
      const text = await failedPreview("import", IMPORT_PROGRAM, emulatorConfig(emulator()));
      const advice = `remove \`import\` and write new Network("main", { networkId: "${NETWORK}" })`;
      expect(occurrences(diagnostics(text), advice)).toBe(1);
      expect(text).not.toContain("toJavaScript");
      expect(text).not.toContain("code must be a string");
      run.audit(emulator().secrets());
    },
    STEP_TIMEOUT,
  );
});
