/**
 * The plugin's package schema: `schema.json` is what `npm run schema` writes from the model and
 * the TypeScript docs (the staleness check), and it says what the model says: every node filter
 * is an input of the listing functions, every endpoint and credential is secret and never part
 * of the readable node view, and every property is documented.
 */
import * as fs from "fs";
import * as path from "path";
import { schemaText } from "../../scripts/schema/gen-schema";
import { NODE_SECRET_FIELDS } from "../../src/api";
import { NODE_FILTER_NAMES } from "../../src/model";

const root = path.resolve(__dirname, "..", "..");
const committed = fs.readFileSync(path.join(root, "schema.json"), "utf8");

interface Property {
  description?: string;
  secret?: boolean;
  [key: string]: unknown;
}
type Properties = Record<string, Property>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is checked field by field below
const schema: any = JSON.parse(committed);

const fn = (name: string) => schema.functions[`blockchain:index:${name}`];
const type = (name: string) => schema.types[`blockchain:index:${name}`];

describe("schema.json", () => {
  test("is what npm run schema generates (else: run npm run schema and commit it)", () => {
    const fresh = schemaText(root);
    expect(fresh === committed ? "up to date" : "schema.json is stale: run npm run schema").toBe(
      "up to date",
    );
  }, 60_000);

  test("every node filter of the model is an input of getNodes and getNodeConnections", () => {
    expect(NODE_FILTER_NAMES.length).toBeGreaterThan(10);
    for (const f of ["getNodes", "getNodeConnections"]) {
      const inputs = Object.keys(fn(f).inputs.properties);
      expect(NODE_FILTER_NAMES.filter((name) => !inputs.includes(name))).toEqual([]);
    }
    // getNodeConnections also takes the one node's id; getNodes does not.
    expect(fn("getNodeConnections").inputs.properties).toHaveProperty("id");
    expect(fn("getNodes").inputs.properties).not.toHaveProperty("id");
  });

  test("every secret field is secret in NodeConnection and absent from NodeResult and getNode", () => {
    expect(NODE_SECRET_FIELDS.length).toBe(7);
    const connection: Properties = type("NodeConnection").properties;
    for (const field of NODE_SECRET_FIELDS) {
      expect({ field, secret: connection[field]?.secret }).toEqual({ field, secret: true });
    }
    // id and name are the only readable fields of a connection.
    const readable = Object.keys(connection).filter((k) => connection[k].secret !== true);
    expect(readable.sort()).toEqual(["id", "name"]);
    for (const props of [type("NodeResult").properties, fn("getNode").outputs.properties]) {
      const keys = Object.keys(props);
      expect(keys).toContain("httpsEndpointMasked");
      expect(NODE_SECRET_FIELDS.filter((field) => keys.includes(field))).toEqual([]);
    }
  });

  test("Network's connections, getNodeConnections' connections and the apiKey config are secret", () => {
    expect(schema.resources["blockchain:index:Network"].properties.connections.secret).toBe(true);
    expect(schema.resources["blockchain:index:Network"].properties.nodes.secret).toBeUndefined();
    expect(fn("getNodeConnections").outputs.properties.connections.secret).toBe(true);
    expect(fn("getNodes").outputs.properties.nodes.secret).toBeUndefined();
    expect(schema.config.variables.apiKey.secret).toBe(true);
    expect(schema.provider.inputProperties.apiKey.secret).toBe(true);
    expect(schema.config.variables.apiUrl.secret).toBeUndefined();
  });

  test("every property has a non-empty description", () => {
    const maps: Array<[string, Properties]> = [
      ["config.variables", schema.config.variables],
      ["provider.inputProperties", schema.provider.inputProperties],
    ];
    for (const [token, spec] of Object.entries<{ properties: Properties }>(schema.types)) {
      maps.push([`types.${token}`, spec.properties]);
    }
    for (const [token, spec] of Object.entries<{ properties: Properties; inputProperties: Properties }>(
      schema.resources,
    )) {
      maps.push([`resources.${token}.properties`, spec.properties]);
      maps.push([`resources.${token}.inputProperties`, spec.inputProperties]);
    }
    for (const [token, spec] of Object.entries<{
      inputs: { properties: Properties };
      outputs: { properties: Properties };
    }>(schema.functions)) {
      maps.push([`functions.${token}.inputs`, spec.inputs.properties]);
      maps.push([`functions.${token}.outputs`, spec.outputs.properties]);
    }
    let count = 0;
    const undocumented: string[] = [];
    for (const [where, props] of maps) {
      for (const [name, prop] of Object.entries(props)) {
        count++;
        if (typeof prop.description !== "string" || prop.description.trim() === "") {
          undocumented.push(`${where}.${name}`);
        }
      }
    }
    expect(undocumented).toEqual([]);
    expect(count).toBeGreaterThan(100);
  });
});
