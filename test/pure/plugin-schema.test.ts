/** schema.json against the model, and the Registry's pages (docs/) against schema.json. */
import * as fs from "fs";
import * as path from "path";
import { schemaText } from "../../scripts/schema/gen-schema";
import { NODE_SECRET_FIELDS } from "../../src/api";
import { NODE_FILTER_NAMES } from "../../src/model";
import { SETTINGS, SETTING_NAMES } from "../../src/settings";

const root = path.resolve(__dirname, "..", "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");
const committed = read("schema.json");

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
    expect(fn("getNodeConnections").inputs.properties).toHaveProperty("id");
    expect(fn("getNodes").inputs.properties).not.toHaveProperty("id");
  });

  test("every secret field is secret in NodeConnection and absent from NodeResult and getNode", () => {
    expect(NODE_SECRET_FIELDS.length).toBe(7);
    const connection: Properties = type("NodeConnection").properties;
    for (const field of NODE_SECRET_FIELDS) {
      expect({ field, secret: connection[field]?.secret }).toEqual({ field, secret: true });
    }
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
    const all: Array<{ at: string; p: Property }> = [];
    const walk = (value: unknown, at: string): void => {
      for (const [key, member] of Object.entries(value ?? {})) {
        if (["variables", "inputProperties", "properties"].includes(key))
          all.push(
            ...Object.entries<Property>(member).map(([name, p]) => ({ at: `${at}.${key}.${name}`, p })),
          );
        else if (typeof member === "object") walk(member, `${at}.${key}`);
      }
    };
    walk(schema, "schema");
    expect(
      all
        .filter(({ p }) => typeof p.description !== "string" || p.description.trim() === "")
        .map(({ at }) => at),
    ).toEqual([]);
    expect(all.length).toBeGreaterThan(100);
  });
});

const overview = read("docs/_index.md");
const installation = read("docs/installation-configuration.md");

/** The names in `names` that `page` does not name in backticks (`` `name` ``) or as part of a token. */
function unnamed(page: string, names: string[]): string[] {
  return names.filter((name) => !page.includes(`\`${name}\``) && !page.includes(`:${name}\``));
}

/** The short name of a token: `blockchain:index:getNodes` → `getNodes`. */
const short = (token: string) => token.slice(token.lastIndexOf(":") + 1);

describe("docs/ (the Pulumi Registry's pages)", () => {
  test("the overview names every resource and function of the schema, by name and by token", () => {
    const tokens = [...Object.keys(schema.resources), ...Object.keys(schema.functions)];
    expect(tokens.length).toBeGreaterThanOrEqual(5);
    expect(unnamed(overview, tokens.map(short))).toEqual([]);
    expect(tokens.filter((token) => !overview.includes(token))).toEqual([]);
  });

  test("the installation page names every config key (as blockchain:<key>) and the environment variable its doc names", () => {
    const keys = Object.keys(schema.config.variables);
    expect(keys).toEqual(SETTING_NAMES);
    expect(Object.keys(schema.provider.inputProperties).sort()).toEqual([...keys].sort());
    expect(unnamed(installation, keys)).toEqual([]);
    expect(keys.filter((key) => !installation.includes(`blockchain:${key}`))).toEqual([]);
    const envVars = keys.flatMap(
      (key) => schema.config.variables[key].description?.match(/BLOCKCHAIN_[A-Z_]+/g) ?? [],
    );
    expect(envVars).toEqual(expect.arrayContaining(SETTING_NAMES.map((name) => SETTINGS[name].env)));
    expect(envVars.filter((name) => !installation.includes(name))).toEqual([]);
  });

  test("the installation page installs every SDK and the plugin from the schema's download server", () => {
    expect(installation).toContain(`npm install ${schema.language.nodejs.packageName}`);
    expect(installation).toContain(`pip install ${schema.language.python.packageName}`);
    expect(installation).toContain(`go get ${schema.language.go.importBasePath}`);
    expect(installation).toContain(`pulumi plugin install resource ${schema.name} <version>`);
    expect(installation).toContain(`--server ${schema.pluginDownloadURL}`);
  });

  test("the schema's logo is an SVG file of this repository, on the repository's default branch", () => {
    const repo = schema.repository.replace(/^https:\/\/github\.com\//, "");
    const prefix = `https://raw.githubusercontent.com/${repo}/main/`;
    expect(schema.logoUrl.startsWith(prefix)).toBe(true);
    const logo = schema.logoUrl.slice(prefix.length);
    expect(logo).toMatch(/\.svg$/);
    expect(read(logo)).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(schema.pluginDownloadURL).toBe(`github://api.github.com/${repo}`);
  });
});
