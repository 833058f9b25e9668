/** The main entry as programs and editors see it: its runtime names, docs on each name and field, typos. */
import * as path from "path";
import * as ts from "typescript";
import { mockedSdk } from "./outputs";
import { NODE_FILTER_NAMES, NODE_SECRET_FIELDS, NODE_STATUSES } from "../../src/model";

const sdk = mockedSdk();

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
const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(ENTRY)!)!);
const target = (symbol: ts.Symbol) =>
  symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
const docs = (symbol: ts.Symbol) => ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();

/** Each property of an exported type: its docs and its type as the editor writes it. */
function members(name: string): Record<string, { docs: string; type: string }> {
  const symbol = exported.find((s) => s.getName() === name);
  if (!symbol) throw new Error(`${name} is not exported by the main entry`);
  const out: Record<string, { docs: string; type: string }> = {};
  for (const prop of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(target(symbol)))) {
    const declaration = prop.declarations?.[0] ?? program.getSourceFile(ENTRY)!;
    out[prop.getName()] = {
      docs: docs(prop),
      type: checker.typeToString(checker.getTypeOfSymbolAtLocation(prop, declaration)),
    };
  }
  return out;
}

/** The runtime names of the main entry, on purpose: a change here is a change of the public API. */
const RUNTIME_NAMES = [
  // resources and functions
  "Network",
  "FaucetDrip",
  "getNode",
  "getNodeOutput",
  "getNodes",
  "getNodesOutput",
  "getNodeConnectionsOutput",
  // the client
  "NodeServiceClient",
  // errors
  "ApiError",
  "UnauthorizedError",
  "ForbiddenError",
  "NotFoundError",
  "ValidationError",
  "ConflictError",
  "RateLimitedError",
  "UnavailableError",
  "TimeoutError",
  "NetworkError",
  "InvalidInputError",
  "InvalidResponseError",
  "isApiError",
  "SettingsError",
  // allowed values
  "PROTOCOLS",
  "PUBLIC_NETWORK_NAMES",
  "PROVIDERS",
  "REGIONS",
  "NODE_TYPES",
  "NODE_STATUSES",
  "NETWORK_STATUSES",
  "ORDER_BY_VALUES",
];

describe("the main entry", () => {
  test("exports the curated runtime names, each defined, and no others (at most 30)", () => {
    const names = Object.keys(sdk);
    expect(names.length).toBeLessThanOrEqual(30);
    expect([...names].sort()).toEqual([...RUNTIME_NAMES].sort());
    for (const name of names) expect(sdk[name as keyof typeof sdk]).toBeDefined();
  });

  test("documents every exported name, types included, where it is defined", () => {
    expect(exported.length).toBeGreaterThan(RUNTIME_NAMES.length);
    expect(exported.filter((symbol) => docs(target(symbol)) === "").map((s) => s.getName())).toEqual([]);
  });

  test.each([
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
  ])("%s documents every field", (name) => {
    const undocumented = Object.entries(members(name)).filter(([, m]) => m.docs === "");
    expect(undocumented.map(([field]) => field)).toEqual([]);
  });
});

describe("the filters", () => {
  test.each(["GetNodesArgs", "GetNodesOutputArgs", "GetNodeConnectionsOutputArgs"])(
    "%s has every filter, with its docs",
    (name) => {
      const fields = members(name);
      for (const filter of NODE_FILTER_NAMES) expect(fields[filter]?.docs).toBeTruthy();
    },
  );

  test("name matches the exact whole name; each enum filter lists its allowed values", () => {
    const fields = members("GetNodesArgs");
    expect(fields.name.docs).toMatch(/\bwhole name\b.*\bcase-sensitive\b.*\bnot a substring\b/);
    expect(fields.region.docs).toMatch(/us-east-1.*uksouth.*eu3/s);
    expect(fields.provider.docs).toMatch(/`aws`, `azure`, `gcloud` or `vzo`/);
    for (const status of NODE_STATUSES) expect(fields.status.docs).toContain(`\`${status}\``);
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
    const result = Object.keys(members("NodeResult"));
    for (const field of NODE_SECRET_FIELDS) expect(result).not.toContain(field);
    expect(Object.keys(members("NodeConnection")).sort()).toEqual(
      ["id", "name", ...NODE_SECRET_FIELDS].sort(),
    );
  });
});

describe("untyped JavaScript callers", () => {
  // new Network with a typo (`nmae`): stack-config.test.ts, "a mistyped key: … a mistyped argument refused …".
  test("getNode with a typo (`idd`) fails naming it, nothing sent", async () => {
    const args = {
      idd: "ND-100-000-001",
      apiUrl: "https://api.example.com",
      apiKey: "k-123456",
    } as unknown as import("../../src").GetNodeArgs;
    await expect(sdk.getNode(args)).rejects.toThrow(/\bidd: .*`id`/);
  });
});
