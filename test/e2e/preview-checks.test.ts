/**
 * End to end: a program with only a Network, under the real engine (a program on disk run by the
 * nodejs language host), against the emulator: what preview catches before anything changes.
 * - a stack-config `blockchain:apiUrl` of `http://api.example.com` fails the preview, as the same
 *   URL passed as an argument does, and says where it came from and how to set it there;
 * - a wrong API key fails the preview (one read-only request: the first page of the node list),
 *   with the fix for where the key came from;
 * - the `import` resource option fails with the way that works (`networkId`).
 * Each failure is printed once, without a stack trace, and nothing is changed in the service.
 */
import * as fs from "fs";
import { CommandError, LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { findSecrets } from "../helpers/audit";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine, EngineSandbox, engineSandbox, filesUnder } from "../helpers/engine";
import { occurrences, programProject, PROGRAM_PROJECTS_DIR } from "../helpers/program-project";

const STEP_TIMEOUT = 240_000;
const NETWORK = "NW-100-000-1";

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

/** What the engine prints under `Diagnostics:` (each error once; the progress lines show them too). */
function diagnostics(text: string): string {
  expect(text).toContain("Diagnostics:");
  return text.slice(text.indexOf("Diagnostics:"));
}

/** The import option on a Network. */
const IMPORT_PROGRAM = `
import { Network } from "pulumi-blockchain-nodes";

export = async () => {
  const network = new Network("main", { networkId: "${NETWORK}" }, { import: "${NETWORK}" });
  return { name: network.name };
};
`;

describeWithEngine()("preview catches what it can, under the real engine", () => {
  let sandbox: EngineSandbox;
  const stacks: Stack[] = [];
  const transcript: Record<string, string> = {};

  function recorded(label: string) {
    transcript[label] = "";
    return {
      onOutput: (out: string) => (transcript[label] += out),
      onError: (err: string) => (transcript[label] += err),
    };
  }

  async function stackOf(
    name: string,
    code: string,
    config: Record<string, { value: string; secret?: boolean }>,
  ) {
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: name, workDir: programProject(`preview-${name}`, code) },
      { pulumiCommand: sandbox.command, envVars: sandbox.envVars },
    );
    stacks.push(stack);
    await stack.setAllConfig(config);
    return stack;
  }

  /** Runs a preview that must fail; returns everything the engine printed and its wall time. */
  async function failedPreview(stack: Stack, label: string): Promise<{ text: string; seconds: number }> {
    const started = Date.now();
    const error = await stack.preview(recorded(label)).then(
      () => undefined,
      (e: unknown) => e,
    );
    const seconds = (Date.now() - started) / 1000;
    expect(error).toBeInstanceOf(CommandError);
    return { text: transcript[label], seconds };
  }

  /** The service was not changed: the network keeps its seeded name. */
  function untouched(): void {
    expect(emulator().admin.getNetwork(NETWORK)!.name).not.toBe("checked");
  }

  afterAll(async () => {
    for (const stack of stacks) {
      await stack.workspace.removeStack(stack.name, { force: true }).catch(() => undefined);
    }
    fs.rmSync(PROGRAM_PROJECTS_DIR, { recursive: true, force: true });
    sandbox?.cleanup();
  }, STEP_TIMEOUT);

  const emulator = withEmulator();

  beforeAll(async () => {
    sandbox = await engineSandbox();
  }, STEP_TIMEOUT);

  test(
    "a plain-http API URL fails the preview from the stack config as it does as an argument",
    async () => {
      const fromConfig = await stackOf("config-url", PROGRAM, {
        "blockchain:apiUrl": { value: "http://api.example.com" },
        "blockchain:apiKey": { value: emulator().apiKey, secret: true },
      });
      const { text } = await failedPreview(fromConfig, "config url");
      // The engine shows a failure on its progress line and once under Diagnostics.
      expect(
        occurrences(
          diagnostics(text),
          "The API URL from stack config is refused: the API URL uses plain http://",
        ),
      ).toBe(1);
      expect(text).toContain(
        "set the right one with `pulumi config set blockchain:apiUrl https://<api host>`",
      );
      expect(text).not.toMatch(/^\s+at /m);

      const asArgument = await stackOf("argument-url", PROGRAM, {
        "blockchain:apiUrl": { value: emulator().url },
        "blockchain:apiKey": { value: emulator().apiKey, secret: true },
        "previewChecks:argumentUrl": { value: "http://api.example.com" },
      });
      const argument = await failedPreview(asArgument, "argument url");
      expect(argument.text).toMatch(
        /property apiUrl value .*has a problem: the API URL uses plain http:\/\//,
      );
      untouched();
    },
    STEP_TIMEOUT,
  );

  test(
    "a wrong key fails the preview after one read-only request, with the fix for the stack config",
    async () => {
      const wrongKey = "wrong-key-for-preview-1234567890";
      const stack = await stackOf("wrong-key", PROGRAM, {
        "blockchain:apiUrl": { value: emulator().url },
        "blockchain:apiKey": { value: wrongKey, secret: true },
      });
      emulator().resetRequests();
      const { text, seconds } = await failedPreview(stack, "wrong key");
      console.log(`failing preview, wrong key (checked by the Network's check): ${seconds.toFixed(1)} s`);
      expect(occurrences(diagnostics(text), "The API key was refused when checked at preview")).toBe(1);
      expect(text).toMatch(/401/);
      expect(text).toContain(
        "it came from stack config blockchain:apiKey: set the right one with `pulumi config set --secret blockchain:apiKey <key>`",
      );
      expect(text).not.toMatch(/^\s+at /m);
      expect(text).not.toContain(wrongKey);
      const requests = emulator().requests();
      expect(requests.map((r) => `${r.method} ${r.route}`)).toEqual(["GET /v1/nodes/"]);
      untouched();
    },
    STEP_TIMEOUT,
  );

  test(
    "the import option fails with the way that works (networkId), once, without a trace",
    async () => {
      const stack = await stackOf("import", IMPORT_PROGRAM, {
        "blockchain:apiUrl": { value: emulator().url },
        "blockchain:apiKey": { value: emulator().apiKey, secret: true },
      });
      const { text, seconds } = await failedPreview(stack, "import");
      console.log(
        `failing preview, import option (pulumi.ResourceError in the constructor): ${seconds.toFixed(1)} s`,
      );
      const advice = `remove \`import\` and write new Network("main", { networkId: "${NETWORK}" })`;
      expect(occurrences(diagnostics(text), advice)).toBe(1);
      expect(text).not.toMatch(/^\s+at /m);
      expect(text).not.toContain("toJavaScript");
      expect(text).not.toContain("code must be a string");
      expect(
        findSecrets(emulator().secrets(), { files: filesUnder(sandbox.backendDir), texts: transcript }),
      ).toEqual([]);
    },
    STEP_TIMEOUT,
  );
});
