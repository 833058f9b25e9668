/** schema.json is what `npm run schema` writes, and says what the model says (filters, secrets, docs). */
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
      ...Object.entries<typeof schema>(schema.types).map(([t, spec]): [string, Properties] => [
        `types.${t}`,
        spec.properties,
      ]),
      ...Object.entries<typeof schema>(schema.resources).flatMap(([t, spec]): Array<[string, Properties]> => [
        [`resources.${t}.properties`, spec.properties],
        [`resources.${t}.inputProperties`, spec.inputProperties],
      ]),
      ...Object.entries<typeof schema>(schema.functions).flatMap(([t, spec]): Array<[string, Properties]> => [
        [`functions.${t}.inputs`, spec.inputs.properties],
        [`functions.${t}.outputs`, spec.outputs.properties],
      ]),
    ];
    const all = maps.flatMap(([where, props]) =>
      Object.entries(props).map(([name, p]) => ({ at: `${where}.${name}`, p })),
    );
    expect(
      all
        .filter(({ p }) => typeof p.description !== "string" || p.description.trim() === "")
        .map(({ at }) => at),
    ).toEqual([]);
    expect(all.length).toBeGreaterThan(100);
  });
});
