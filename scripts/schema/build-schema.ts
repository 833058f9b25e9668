/**
 * The package schema of the `blockchain` plugin (`npm run schema` writes `schema.json`; the
 * plugin serves that file): properties from the model's tables, the kinds' property tables and
 * the settings table, docs from the source's doc comments (a {@link DocLookup}, `gen-schema.ts`).
 */
import { NODE_ENDPOINT_FIELDS, NODE_SECRET_FIELDS } from "../../src/model";
import { NODE_FILTERS, NODE_FILTER_NAMES } from "../../src/model";
import { FUNCTION_TOKENS, KIND_LIST, PACKAGE, token, type AnyKind } from "../../src/provider/kinds";
import type { PropertySpec } from "../../src/provider/table";
import { CALL_SETTING_NAMES, SETTINGS, SETTING_NAMES, type SettingName } from "../../src/settings";

/** The repository: its releases host the plugin (docs/other-languages.md), its `docs/logo.svg` is the logo. */
const REPOSITORY = "pulumi-blockchain-nodes/pulumi-blockchain-nodes";

/** A property of the schema (the subset of the spec used here). */
export interface SchemaProperty {
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  $ref?: string;
  items?: SchemaProperty;
  additionalProperties?: SchemaProperty;
  description?: string;
  secret?: boolean;
  willReplaceOnChanges?: boolean;
}

export interface ObjectSpec {
  type: "object";
  description?: string;
  properties: Record<string, SchemaProperty>;
  required?: string[];
}

/**
 * Finds the doc comment of a member of a TypeScript interface, class or constant of the surface
 * (`owner`, `member`), or of the declaration itself when `member` is omitted; with `tag`, the text
 * of that tag of the member's doc comment instead (`@output`). Undefined when there is none.
 */
export type DocLookup = (owner: string, member?: string, tag?: string) => string | undefined;

// An undefined member is left out of the JSON.
const str = (description?: string, extra?: SchemaProperty) =>
  ({ type: "string", description, ...extra }) as const;
const ref = (type: string, description?: string) => ({ $ref: `#/types/${token(type)}`, description });
const arrayOf = (items: SchemaProperty, description?: string, extra?: SchemaProperty) =>
  ({ type: "array", items, description, ...extra }) as const;
const ANY: SchemaProperty = { $ref: "pulumi.json#/Any" };
/** An object type, `required` the properties listed (true: all, false: none). */
const objectType = (
  required: string[] | boolean,
  description: string | undefined,
  properties: Record<string, SchemaProperty>,
): ObjectSpec => ({
  type: "object",
  description,
  properties,
  required: required === true ? Object.keys(properties) : required || undefined,
});

/** A doc lookup that fails on a member without a doc: every property of the schema is documented. */
type Doc = (owner: string, member?: string) => string;

function required(docs: DocLookup): Doc {
  return (owner, member) => {
    const doc = docs(owner, member);
    if (!doc) throw new Error(`schema: no doc comment on ${owner}${member ? `.${member}` : ""}`);
    return doc;
  };
}

/** Every filter of `GET /v1/nodes/`, typed by its rule in the model, documented as the client's `NodeFilters`. */
const filterProperties = (doc: Doc): Record<string, SchemaProperty> =>
  Object.fromEntries(
    NODE_FILTER_NAMES.map((n) => {
      const type = NODE_FILTERS[n].rule.kind === "boolean" ? "boolean" : "string";
      return [n, { type, description: doc("NodeFilters", n) }];
    }),
  );

// prettier-ignore
const NODE_RESULT_REQUIRED = ["id", "name", "network", "organization", "type", "role", "provider", "region", "status", "configuration", "createdAt"];

function nodeResultProperties(doc: Doc): Record<string, SchemaProperty> {
  // Every required field but `configuration` (an object), and the optional strings.
  const plain = [...NODE_RESULT_REQUIRED.filter((k) => k !== "configuration"), "mode", "version"];
  const props: Record<string, SchemaProperty> = Object.fromEntries(
    plain.map((n) => [n, str(doc("NodeResult", n))]),
  );
  props.configuration = { ...ANY, description: doc("NodeResult", "configuration") };
  props.creator = ref("Creator", doc("NodeResult", "creator"));
  props.apiNamespaces = arrayOf({ type: "string" }, doc("NodeResult", "apiNamespaces"));
  for (const k of NODE_ENDPOINT_FIELDS) props[`${k}Masked`] = str(doc("NodeResult", `${k}Masked`));
  props.verified = ref("VerifiedEndpoint", doc("NodeResult", "verified"));
  return props;
}

type PlainTypes = Record<string, SchemaProperty["type"]>;

/** The `types` section: the node views, the creator, `waitFor` and `verify`. */
function types(doc: Doc): Record<string, ObjectSpec> {
  /** An object type documented by the TypeScript type `owner`, of plain properties each of its type. */
  const documented = (required: string[] | boolean, owner: string, types: PlainTypes) =>
    objectType(
      required,
      doc(owner),
      Object.fromEntries(Object.entries(types).map(([n, type]) => [n, { type, description: doc(owner, n) }])),
    );
  const connection: Record<string, SchemaProperty> = {};
  for (const k of ["id", "name"]) connection[k] = str(doc("NodeConnection", k));
  for (const k of NODE_SECRET_FIELDS) connection[k] = str(doc("NodeConnection", k), { secret: true });
  return {
    [token("NodeResult")]: objectType(NODE_RESULT_REQUIRED, doc("NodeResult"), nodeResultProperties(doc)),
    [token("NodeConnection")]: objectType(["id", "name"], doc("NodeConnection"), connection),
    [token("Creator")]: objectType(true, "Who created a network or a node.", {
      id: str("The creator's user id."),
      email: str("The creator's email address."),
      firstName: str("The creator's first name."),
      lastName: str("The creator's last name."),
      organization: ref("CreatorOrganization", "The creator's organization."),
    }),
    [token("CreatorOrganization")]: objectType(true, "An organization: its id (`RG-…`) and name.", {
      id: str("The organization's id, e.g. `RG-123-456`."),
      name: str("The organization's name."),
    }),
    [token("WaitFor")]: documented(["status"], "WaitFor", {
      status: "string",
      timeoutSeconds: "number",
      intervalSeconds: "number",
    }),
    [token("Verify")]: documented(false, "VerifyOptions", {
      maxHeadAgeSeconds: "number",
      timeoutSeconds: "number",
      expectedChainId: "string",
      minVerified: "integer",
    }),
    [token("VerifiedEndpoint")]: documented(true, "VerifiedEndpoint", {
      chainId: "string",
      headBlock: "integer",
      headAgeSeconds: "integer",
      latencyMs: "integer",
      checkedAt: "string",
    }),
  };
}

const CONNECTIONS_NOTE =
  "Secret as a whole in every language: only the Output form exists (`getNodeConnectionsOutput`, " +
  "`get_node_connections_output`); metadata comes readable from `getNodes`.";

/** The settings `names`, typed and documented as the settings table says. */
function settings(doc: Doc, names: readonly SettingName[]): Record<string, SchemaProperty> {
  return Object.fromEntries(
    names.map((name) => {
      const [{ type }, secret] = [SETTINGS[name], "secret" in SETTINGS[name] || undefined];
      return [name, { type, description: doc("SETTINGS", name), secret }];
    }),
  );
}

/** The `functions` section: metadata readable (`getNode`, `getNodes`), connections secret. */
function functions(doc: Doc) {
  const callInputs = (owner: string) => ({
    waitFor: ref("WaitFor", doc(owner, "waitFor")),
    verify: ref("Verify", doc(owner, "verify")),
    ...settings(doc, CALL_SETTING_NAMES),
  });
  const listInputs = {
    ...filterProperties(doc),
    limit: { type: "integer" as const, description: doc("GetNodesArgs", "limit") },
    ...callInputs("GetNodesArgs"),
  };
  return {
    [FUNCTION_TOKENS.getNode]: {
      description:
        "Looks up one node (`GET /v1/nodes/{id}/`): its metadata and masked endpoints, never secret. " +
        "Its endpoints and credentials come from `getNodeConnections` with the same `id`.",
      inputs: objectType(["id"], undefined, {
        id: str(doc("GetNodeArgs", "id")),
        ...callInputs("GetNodeArgs"),
      }),
      outputs: objectType(NODE_RESULT_REQUIRED, undefined, nodeResultProperties(doc)),
    },
    [FUNCTION_TOKENS.getNodes]: {
      description:
        "Lists the nodes visible to the API key's organization (`GET /v1/nodes/`, every page), filtered and " +
        "ordered: their metadata and masked endpoints, never secret. More matching nodes than `limit` is an " +
        "error asking to narrow the filters, never a silent cut.",
      inputs: objectType(false, undefined, listInputs),
      outputs: objectType(true, undefined, {
        nodes: arrayOf(ref("NodeResult"), "The matching nodes, in the order asked for."),
      }),
    },
    [FUNCTION_TOKENS.getNodeConnections]: {
      description:
        "The endpoints and credentials of nodes: those of the list that `getNodes` returns for the same " +
        `filters, or of the one node \`id\`. ${CONNECTIONS_NOTE}`,
      inputs: objectType(false, undefined, { id: str(doc("GetNodeConnectionsArgs", "id")), ...listInputs }),
      outputs: objectType(true, undefined, {
        connections: arrayOf(ref("NodeConnection"), doc("NodeConnection"), { secret: true }),
      }),
    },
  };
}

function typeOf(spec: PropertySpec): SchemaProperty {
  if (spec.type === "object") return ANY;
  if (spec.type.endsWith("[]")) return arrayOf({ $ref: `#/types/${token(spec.type.slice(0, -2))}` });
  return /^[A-Z]/.test(spec.type) ? ref(spec.type) : { type: spec.type as SchemaProperty["type"] };
}

/** The `resources` section: every kind, from its property table (`<NAME>_PROPERTIES`). */
function resources(docs: DocLookup) {
  const doc = required(docs);
  return Object.fromEntries(
    KIND_LIST.map((kind: AnyKind) => {
      const table = `${kind.name.replace(/(?<=[a-z])(?=[A-Z])/g, "_").toUpperCase()}_PROPERTIES`;
      const rows = Object.entries(kind.properties).filter(([, s]) => s.schema !== false);
      const property = (spec: PropertySpec, description: string): SchemaProperty => ({
        ...typeOf(spec),
        description,
        secret: spec.secret || undefined,
      });
      const outputs = rows.filter(([, s]) => s.output === "required" || s.output === "optional");
      const inputs = rows.filter(([, s]) => s.input);
      return [
        kind.token,
        {
          description: kind.docs.description,
          properties: Object.fromEntries(
            outputs.map(([n, s]) => [n, property(s, docs(table, n, "output") ?? doc(table, n))]),
          ),
          required: outputs.filter(([, s]) => s.output === "required").map(([n]) => n),
          inputProperties: Object.fromEntries(
            inputs.map(([n, s]) => [
              n,
              { ...property(s, doc(table, n)), willReplaceOnChanges: s.change === "replace" || undefined },
            ]),
          ),
          requiredInputs: inputs.filter(([, s]) => s.input === "required").map(([n]) => n),
        },
      ];
    }),
  );
}

/**
 * The package schema of the plugin, version `version`, its property docs found by `docs`.
 * @throws Error naming the member when a documented property has no doc comment.
 */
export function buildSchema(version: string, docs: DocLookup): Record<string, unknown> {
  const doc = required(docs);
  return {
    name: PACKAGE,
    displayName: "Blockchain Nodes",
    version,
    description:
      "Manage the networks of a hosted blockchain node service and look up its nodes, with every endpoint " +
      "and credential kept secret.",
    // The Registry's category: a hosted service (networks and nodes run by the service in its cloud
    // regions), like the other hosted platforms under Cloud. `kind/native`: a provider of its own, not
    // bridged from Terraform and not a component.
    keywords: ["pulumi", "blockchain", "nodes", "web3", "category/cloud", "kind/native"],
    publisher: "pulumi-blockchain-nodes",
    homepage: `https://github.com/${REPOSITORY}#readme`,
    repository: `https://github.com/${REPOSITORY}`,
    logoUrl: `https://raw.githubusercontent.com/${REPOSITORY}/main/docs/logo.svg`,
    license: "Apache-2.0",
    pluginDownloadURL: `github://api.github.com/${REPOSITORY}`,
    meta: { moduleFormat: "(.*)", supportPack: true },
    config: { variables: settings(doc, SETTING_NAMES) },
    provider: {
      description:
        "The blockchain provider: where the service is and which organization's API key to use. An explicit " +
        "provider with another key reads and manages that organization's networks and nodes.",
      inputProperties: settings(doc, SETTING_NAMES),
    },
    types: types(doc),
    resources: resources(docs),
    functions: functions(doc),
    language: {
      nodejs: {
        packageName: "pulumi-blockchain",
        packageDescription: "Pulumi SDK of the blockchain provider plugin (pulumi-resource-blockchain).",
        respectSchemaVersion: true,
      },
      python: { packageName: "pulumi_blockchain", respectSchemaVersion: true, pyproject: { enabled: true } },
      go: {
        importBasePath: `github.com/${REPOSITORY}/sdk/go/blockchain`,
        respectSchemaVersion: true,
        generateResourceContainerTypes: true,
      },
    },
  };
}
