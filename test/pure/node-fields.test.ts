/** The node-field table: names written once in src/; a made-up secret field is secret everywhere. */
import * as fs from "fs";
import * as path from "path";
import { NODE_DETAIL_FIELDS } from "../../src/model";
import { wireNode as wire } from "../helpers/client";

const SRC = path.resolve(__dirname, "..", "..", "src");
const TABLE = path.join(SRC, "model", "node-fields.ts");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return full === path.join(SRC, "emulator") ? [] : sourceFiles(full);
    return e.name.endsWith(".ts") ? [full] : [];
  });
}

describe("the node-field table", () => {
  const files = sourceFiles(SRC).map((file) => ({ file, text: fs.readFileSync(file, "utf8") }));
  const names = Object.entries(NODE_DETAIL_FIELDS)
    .filter(([, field]) => field.secret)
    .flatMap(([name, field]) => [name, field.wire]);

  test.each(names)("%s is written once in src/ (outside the emulator): in the table", (name) => {
    const word = new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`, "g");
    const places = files.flatMap(({ file, text }) =>
      (text.match(word) ?? []).map(() => path.relative(SRC, file)),
    );
    expect(places).toEqual([path.relative(SRC, TABLE)]);
  });
});

describe("a made-up secret field added to the table", () => {
  const VALUE = "correct-horse-battery-staple";
  const load = () => ({
    api: require("../../src/api") as typeof import("../../src/api"),
    views: require("../../src/provider/node-views") as typeof import("../../src/provider/node-views"),
    model: require("../../src/model") as typeof import("../../src/model"),
    transport: require("../../src/api/nodes") as typeof import("../../src/api/nodes"),
    mapping: require("../../src/api/mapping") as typeof import("../../src/api/mapping"),
    store: require("../../src/emulator/data/store") as typeof import("../../src/emulator/data/store"),
    schema:
      require("../../scripts/schema/build-schema") as typeof import("../../scripts/schema/build-schema"),
    docs: require("../../scripts/schema/schema-docs") as typeof import("../../scripts/schema/schema-docs"),
  });
  let mod: ReturnType<typeof load>;

  beforeAll(() => {
    jest.isolateModules(() => {
      jest.doMock("../../src/model/node-fields", () => {
        const source = fs.readFileSync(TABLE, "utf8");
        const extended = source.replace(
          "export const NODE_DETAIL_FIELDS = {",
          'export const NODE_DETAIL_FIELDS = {\n  signerSeed: { wire: "signer_seed", secret: true, value: "credential" },',
        );
        if (extended === source) throw new Error("the table's declaration was not found");
        const ts = jest.requireActual("typescript") as typeof import("typescript");
        const js = ts.transpileModule(extended, {
          compilerOptions: { module: ts.ModuleKind.CommonJS },
        }).outputText;
        const exports: Record<string, unknown> = {};
        new Function("exports", "require", js)(exports, require);
        return exports;
      });
      mod = load();
    });
  });

  const wireNode = (details: Record<string, unknown>) => wire({ organization: "RG-100-001", details });
  const seedOf = (view: object) => (view as Record<string, unknown>).signerSeed;

  test("is a secret field of the model", () => {
    expect(mod.model.NODE_SECRET_FIELDS).toContain("signerSeed");
    expect(mod.model.NODE_CREDENTIAL_FIELDS).toContain("signerSeed");
    expect(mod.model.SECRET_DETAIL_FIELDS).toContain("signer_seed");
    expect(mod.model.secretValues({ signerSeed: VALUE, mode: "full" })).toEqual([VALUE]);
  });

  test("is mapped from the wire, in the connection views and not in the readable one", () => {
    const node = mod.mapping.toNode(wireNode({ signer_seed: VALUE, https_endpoint: "https://h.example/x" }));
    expect(seedOf(node.details)).toBe(VALUE);
    expect(seedOf(mod.views.toNodeConnection(node))).toBe(VALUE);
    expect(seedOf(mod.views.toNodeWithConnection(node))).toBe(VALUE);
    const readable = JSON.stringify(mod.views.toNodeResult(node));
    expect(readable).not.toContain(VALUE);
    expect(readable).not.toContain("signerSeed");
    expect(seedOf(mod.views.toNodeWithConnection(mod.mapping.toNode(wireNode({}))))).toBe("");
  });

  test("is redacted by name from error texts, and learned from a read", () => {
    expect(mod.api.redact(`{"signer_seed": "${VALUE}"}`)).not.toContain(VALUE);
    expect(mod.api.redact(`signerSeed=${VALUE}`)).not.toContain(VALUE);
    const learned: string[] = [];
    const node = mod.mapping.toNode(wireNode({ signer_seed: VALUE }));
    const learn = (values: readonly (string | undefined)[]) => learned.push(...(values as string[]));
    mod.transport.learnNodeSecrets({ learned: { learn } } as never, [node]);
    expect(learned).toEqual([VALUE]);
  });

  test("is hidden by the emulator from other organizations, shown to the node's own", () => {
    const store = new mod.store.Store({
      organizations: [{ id: "RG-100-001", name: "org", apiKey: "k".repeat(32) }],
      users: [{ id: "US-1", email: "a@b.c", firstName: "A", lastName: "B", organization: "RG-100-001" }],
      projects: [],
      networks: [],
      nodes: [],
    } as never);
    const record = { ...wireNode({}), createdAt: "2024-01-01T00:00:00Z", creator: "US-1" };
    const node = { ...record, details: { signer_seed: VALUE, mode: "full" } } as never;
    expect(store.nodeWire(node, "RG-100-002").details).toEqual({ mode: "full" });
    expect(store.nodeWire(node, "RG-100-001").details).toEqual({ signer_seed: VALUE, mode: "full" });
  });

  test("is secret in the plugin's schema, and not a property of the readable node", () => {
    const real = mod.docs.surfaceDocs(SRC);
    const docs = (owner: string, member?: string) =>
      member === "signerSeed" ? "A made-up signer seed." : real(owner, member);
    const schema = mod.schema.buildSchema("0.0.0", docs) as {
      types: Record<string, { properties: Record<string, { secret?: boolean }> }>;
    };
    expect(schema.types["blockchain:index:NodeConnection"].properties.signerSeed).toMatchObject({
      secret: true,
    });
    expect(Object.keys(schema.types["blockchain:index:NodeResult"].properties)).not.toContain("signerSeed");
  });
});
