/**
 * The public surface of the main entry, as a program loads it: at most 30 runtime names, no
 * internals, and every exported name documented where it is defined (it is the user's IDE help).
 */
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import * as ts from "typescript";

pulumi.runtime.setMocks(
  {
    newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
    call: (args) => args.inputs,
  },
  "program",
  "test",
  false,
);

const ENTRY = path.resolve(__dirname, "..", "..", "src", "index.ts");

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

const INTERNALS = [
  "unsecretArgs",
  "waitUntil",
  "toNodeResult",
  "toNodeConnection",
  "fetchNodes",
  "asRunError",
  "maskEndpoint",
  "MASK",
  "createApiError",
  "kindForStatus",
  "formatApiErrorMessage",
  "problemsToFields",
  "invalidInput",
  "show",
  "oneOf",
  "PATHS",
  "PAGE_QUERY",
  "model",
  "resolveSettings",
  "withClient",
  "NODE_SECRET_FIELDS",
];

describe("the main entry", () => {
  // Loaded after setMocks, as a program would be.
  const sdk = require("../../src") as Record<string, unknown>;

  test("exports at most 30 runtime names: the curated ones", () => {
    const names = Object.keys(sdk);
    expect(names.length).toBeLessThanOrEqual(30);
    expect([...names].sort()).toEqual([...RUNTIME_NAMES].sort());
    for (const name of names) expect(sdk[name]).toBeDefined();
  });

  test("shows no internals", () => {
    for (const name of INTERNALS) expect(Object.keys(sdk)).not.toContain(name);
  });

  test("documents every exported name, types included, where it is defined", () => {
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
    const exported = checker.getExportsOfModule(entry);
    const undocumented = exported
      .map((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        const docs = ts.displayPartsToString(target.getDocumentationComment(checker)).trim();
        return docs === "" ? symbol.getName() : undefined;
      })
      .filter((name) => name !== undefined);
    expect(exported.length).toBeGreaterThan(RUNTIME_NAMES.length);
    expect(undocumented).toEqual([]);
  });
});

describe("untyped JavaScript callers", () => {
  test("new Network with a typo (`nmae`) is refused, naming it and the argument it resembles", () => {
    const { Network } = require("../../src") as typeof import("../../src");
    const args = { networkId: "NW-100-000-1", nmae: "renamed" } as unknown as import("../../src").NetworkArgs;
    expect(() => new Network("typo", args)).toThrow(
      /Network "typo": nmae: got "renamed"; unknown argument; did you mean `name`\?/,
    );
  });

  test("getNode with a typo (`idd`) fails naming it, nothing sent", async () => {
    const { getNode } = require("../../src") as typeof import("../../src");
    const args = {
      idd: "ND-100-000-001",
      apiUrl: "https://api.example.com",
      apiKey: "k-123456",
    } as unknown as import("../../src").GetNodeArgs;
    await expect(getNode(args)).rejects.toThrow(
      /idd: got "ND-100-000-001"; unknown argument; did you mean `id`\?/,
    );
  });
});
