/**
 * What an editor shows on hover, read with the TypeScript checker from the main entry: every
 * argument of the functions (the `…Output` forms too) and every field of their results has JSDoc,
 * the `…Output` arguments read as `Input<…>` of the plain type without `NonNullable` noise, and
 * the metadata fields carry the model's values, not `string`.
 */
import * as path from "path";
import * as ts from "typescript";

const ENTRY = path.resolve(__dirname, "..", "..", "src", "index.ts");

const program = ts.createProgram([ENTRY], {
  target: ts.ScriptTarget.ES2020,
  module: ts.ModuleKind.CommonJS,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
});
const checker = program.getTypeChecker();
const entry = checker.getSymbolAtLocation(program.getSourceFile(ENTRY)!)!;
const exported = new Map(checker.getExportsOfModule(entry).map((s) => [s.getName(), s]));

/** The type an exported type name stands for. */
function typeOf(name: string): ts.Type {
  const symbol = exported.get(name);
  if (!symbol) throw new Error(`${name} is not exported by the main entry`);
  return checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(symbol));
}

/** Each property of an exported type: its docs and its type as the editor writes it. */
function members(name: string): Record<string, { docs: string; type: string }> {
  const out: Record<string, { docs: string; type: string }> = {};
  for (const prop of checker.getPropertiesOfType(typeOf(name))) {
    const declaration = prop.declarations?.[0] ?? program.getSourceFile(ENTRY)!;
    out[prop.getName()] = {
      docs: ts.displayPartsToString(prop.getDocumentationComment(checker)).trim(),
      type: checker.typeToString(checker.getTypeOfSymbolAtLocation(prop, declaration)),
    };
  }
  return out;
}

const FILTERS = [
  "project",
  "organization",
  "network",
  "region",
  "provider",
  "protocol",
  "role",
  "type",
  "archive",
  "publicNetwork",
  "name",
  "projectType",
  "status",
  "orderBy",
];

describe.each([
  "GetNodeArgs",
  "GetNodeOutputArgs",
  "GetNodesArgs",
  "GetNodesOutputArgs",
  "GetNodeConnectionsArgs",
  "GetNodeConnectionsOutputArgs",
  "NodeFilterArgs",
  "NodeResult",
  "NodeConnection",
  "WaitFor",
  "NetworkArgs",
  "FaucetDripArgs",
])("%s", (name) => {
  test("every field is documented", () => {
    const undocumented = Object.entries(members(name))
      .filter(([, m]) => m.docs === "")
      .map(([field]) => field);
    expect(undocumented).toEqual([]);
  });
});

describe("the filters", () => {
  test.each(["GetNodesArgs", "GetNodesOutputArgs", "GetNodeConnectionsOutputArgs"])(
    "%s has every filter, with its docs",
    (name) => {
      const fields = members(name);
      for (const filter of FILTERS) expect(fields[filter]?.docs).toBeTruthy();
    },
  );

  test("name says it matches the exact whole name, not a substring", () => {
    expect(members("GetNodesArgs").name.docs).toMatch(
      /exactly this name: the whole name, case-sensitive, not a substring/,
    );
  });

  test("each enum filter lists its allowed values", () => {
    const fields = members("GetNodesArgs");
    expect(fields.region.docs).toMatch(/us-east-1.*uksouth.*eu3/s);
    expect(fields.provider.docs).toMatch(/`aws`, `azure`, `gcloud` or `vzo`/);
    expect(fields.status.docs).toMatch(
      /`pending`, `running`, `maintenance`, `failed`, `error`,\s+`stopping`,\s+`stopped` or `starting`/,
    );
    expect(fields.type.docs).toMatch(/`shared` or `dedicated`/);
    expect(fields.orderBy.docs).toMatch(/-created_at/);
    expect(fields.protocol.docs).toMatch(/`ethereum`.*`bitcoin`/s);
  });
});

describe("the …Output arguments", () => {
  test.each(["GetNodeOutputArgs", "GetNodesOutputArgs", "GetNodeConnectionsOutputArgs"])(
    "%s keeps the plain docs and shows Input<plain type>, without NonNullable",
    (name) => {
      const plain = members(name.replace("OutputArgs", "Args"));
      for (const [field, m] of Object.entries(members(name))) {
        expect(m.docs).toBe(plain[field].docs);
        expect(m.type).not.toContain("NonNullable");
        expect(m.type).toMatch(/^Input<|^string|^number|^boolean|^"/);
      }
    },
  );

  test("getNodesOutput's status is an Input of the statuses, apiKey an Input<string>", () => {
    const fields = members("GetNodesOutputArgs");
    expect(fields.status.type).toMatch(/^Input<"pending" \| "running" \| [^>]*"starting"> \| undefined$/);
    expect(fields.apiKey.type).toBe("Input<string> | undefined");
  });
});

describe("NodeResult and NodeConnection", () => {
  test("NodeResult's metadata uses the model's types, not string", () => {
    const fields = members("NodeResult");
    expect(fields.type.type).toBe('"shared" | "dedicated"');
    expect(fields.role.type).toBe('"peer"');
    expect(fields.provider.type).toBe('"gcloud" | "aws" | "azure" | "vzo"');
    expect(fields.region.type).toMatch(/^"asia-southeast1" \| .*"eu3"$/);
    expect(fields.status.type).toMatch(/^"pending" \| "running" \| .*"starting"$/);
  });

  test("NodeResult has no endpoint or credential; NodeConnection has them all", () => {
    const secret = [
      "httpsEndpoint",
      "wssEndpoint",
      "graphqlEndpoint",
      "beaconEndpoint",
      "authUsername",
      "authPassword",
      "authKey",
    ];
    const result = Object.keys(members("NodeResult"));
    for (const field of secret) expect(result).not.toContain(field);
    expect(Object.keys(members("NodeConnection")).sort()).toEqual(["id", "name", ...secret].sort());
  });
});
