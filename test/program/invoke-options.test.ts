/** The functions' invoke options in a strict program: dependsOn defers lookups, parent, Promise forms. */
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import * as ts from "typescript";
import { NodeServiceClient } from "../../src/api";
import { withEmulator } from "../helpers/emulator";
import { mockedSdk, outputRejection, rejection, valueOf } from "./outputs";

const NETWORK_TYPE = "pulumi-nodejs:dynamic/blockchain:Network";
/** The package under mocks in which a Network's registration is its update in the emulator (none in a preview). */
const mocked = (preview: boolean) =>
  mockedSdk(async (args) => {
    if (args.type !== NETWORK_TYPE) return { id: `${args.name}-id`, state: args.inputs };
    if (preview) return { id: undefined, state: args.inputs };
    const client = new NodeServiceClient({ apiUrl: emulator().url, apiKey: emulator().apiKey });
    const network = await client.updateNetwork(args.inputs.networkId, { name: args.inputs.name });
    return { id: network.id, state: { ...args.inputs, name: network.name } };
  }, preview);
const sdk = mocked(false);

const emulator = withEmulator({ pageSize: 4 });
const conn = () => ({ apiUrl: emulator().url, apiKey: emulator().apiKey });

/** The emulator's requests since the last reset, as `METHOD route`. */
const requests = () =>
  emulator()
    .requests()
    .map((r) => `${r.method} ${r.route}`);

class App extends pulumi.ComponentResource {
  constructor(name: string) {
    super("test:index:App", name);
  }
}

// That NodeResult holds no endpoint (so reading one from it is a type error): surface.test.ts, "NodeResult has no endpoint or credential; …".
test("strict TypeScript: every form takes Pulumi's invoke options; a Promise form refuses dependsOn", () => {
  const fixture = path.join(__dirname, "invoke-options.fixture.ts");
  const root = path.resolve(__dirname, "..", "..");
  // The compiler options of `pulumi new typescript`, with the package mapped to its sources
  // (which use the ES2022 library).
  const program = ts.createProgram([fixture], {
    strict: true,
    target: ts.ScriptTarget.ES2020,
    lib: ["lib.es2022.d.ts"],
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    experimentalDecorators: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
    baseUrl: root,
    paths: { "pulumi-blockchain-nodes": ["src/index.ts"] },
  });
  const errors = ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
  expect(errors).toEqual([]);
});

describe("dependsOn", () => {
  beforeEach(() => emulator().resetRequests());
  afterEach(() => emulator().setRouteDelays({}));

  test("the lookup starts once the network's update is done, and shares no earlier listing", async () => {
    const networkId = emulator().fixtures.networkWithNodes;
    const args = { ...conn(), network: networkId, orderBy: "name" as const };
    const before = await valueOf(sdk.getNodesOutput(args));
    emulator().setRouteDelays({ networkUpdateMs: 1000 });
    emulator().resetRequests();

    const network = new sdk.Network("delayed", { networkId, name: "renamed-first", ...conn() });
    const nodes = sdk.getNodesOutput(args, { dependsOn: [network] });
    const conns = sdk.getNodeConnectionsOutput(args, { dependsOn: network });
    const node = sdk.getNodeOutput({ ...conn(), id: before[0].id }, { dependsOn: pulumi.output([network]) });

    expect((await valueOf(nodes)).map((n) => n.id)).toEqual(before.map((n) => n.id));
    expect(await valueOf(conns)).toHaveLength(before.length);
    expect((await valueOf(node)).id).toBe(before[0].id);
    expect(await pulumi.isSecret(nodes)).toBe(true);
    // The update is answered first; only then does any lookup reach the service.
    const log = requests();
    expect(log[0]).toBe("PATCH /v1/networks/{id}/");
    expect(log.slice(1).length).toBeGreaterThanOrEqual(3);
    expect(log.slice(1).every((r) => r.startsWith("GET /v1/nodes/"))).toBe(true);
    expect(emulator().admin.getNetwork(networkId)!.name).toBe("renamed-first");
    // The result depends on the network, as an invoke's result does.
    const resources = await (
      nodes as unknown as { allResources(): Promise<Set<pulumi.Resource>> }
    ).allResources();
    expect(resources.has(network)).toBe(true);
  });

  test("anything but resources is refused in one line naming dependsOn", async () => {
    const e = await outputRejection(
      sdk.getNodesOutput(conn(), { dependsOn: ["NW-100-000-1" as unknown as pulumi.Resource] }),
    );
    expect(pulumi.RunError.isInstance(e)).toBe(true);
    expect(e.message).toMatch(/^getNodesOutput: .*\n\s+dependsOn: .*"NW-100-000-1"/);
    expect(requests()).toEqual([]);
  });

  test("a Promise form refuses it, naming the Output form to use", async () => {
    const network = new sdk.Network("promise", { networkId: emulator().fixtures.emptyNetwork, ...conn() });
    const opts = { dependsOn: [network] } as pulumi.InvokeOptions;
    const e = await rejection(sdk.getNodes(conn(), opts));
    expect(pulumi.RunError.isInstance(e)).toBe(true);
    expect(e.message).toContain("getNodesOutput");
    expect(requests().filter((r) => r.startsWith("GET"))).toEqual([]);
  });
});

test("parent: a failure is a ResourceError of the parent, the message alone", async () => {
  const parent = new App("app");
  const id = "ND-999-999-997";
  const e = await outputRejection(sdk.getNodeOutput({ ...conn(), id }, { parent }));
  expect(pulumi.ResourceError.isInstance(e)).toBe(true);
  const error = e as pulumi.ResourceError;
  expect(error.resource).toBe(parent);
  expect(error.hideStack).toBe(true);
  expect(error.name).toBe("NotFoundError");
  expect(error.message).toContain(id);
  // The same failure under the same parent is one error object: the engine prints it once.
  expect(await outputRejection(sdk.getNodeOutput({ ...conn(), id }, { parent }))).toBe(e);
  const promised = await rejection(sdk.getNode({ ...conn(), id }, { parent }));
  expect((promised as pulumi.ResourceError).resource).toBe(parent);
});

describe("in a preview that creates the network", () => {
  beforeAll(() => void mocked(true));
  afterAll(() => void mocked(false));

  test("a lookup that depends on it is unknown and secret, and reads nothing", async () => {
    emulator().resetRequests();
    const networkId = emulator().fixtures.networkWithNodes;
    const network = new sdk.Network("new", { networkId, name: "in-preview", ...conn() });
    const nodes = sdk.getNodesOutput({ ...conn(), network: networkId }, { dependsOn: [network] });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const internals = nodes as any;
    expect(await internals.isKnown).toBe(false);
    expect(await pulumi.isSecret(nodes)).toBe(true);
    expect(requests()).toEqual([]);
    // The same lookup without dependsOn runs in the preview, as it always did.
    expect((await valueOf(sdk.getNodesOutput({ ...conn(), network: networkId }))).length).toBeGreaterThan(0);
    expect(requests().filter((r) => r.startsWith("GET /v1/nodes/")).length).toBeGreaterThan(0);
  });
});
