/** The Registry's pages (docs/) name what schema.json serves; the schema's logo is a file here. */
import * as fs from "fs";
import * as path from "path";

const root = path.resolve(__dirname, "..", "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

interface Property {
  description?: string;
}
interface Schema {
  name: string;
  logoUrl: string;
  repository: string;
  pluginDownloadURL: string;
  resources: Record<string, unknown>;
  functions: Record<string, unknown>;
  config: { variables: Record<string, Property> };
  provider: { inputProperties: Record<string, Property> };
  language: {
    nodejs: { packageName: string };
    python: { packageName: string };
    go: { importBasePath: string };
  };
}
const schema: Schema = JSON.parse(read("schema.json"));
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
    expect(keys).toEqual(
      expect.arrayContaining(["apiUrl", "apiKey", "timeoutMs", "deadlineMs", "maxRetries"]),
    );
    // The provider's inputs are the same settings.
    expect(Object.keys(schema.provider.inputProperties).sort()).toEqual([...keys].sort());
    expect(unnamed(installation, keys)).toEqual([]);
    expect(keys.filter((key) => !installation.includes(`blockchain:${key}`))).toEqual([]);
    const envVars = keys.flatMap(
      (key) => schema.config.variables[key].description?.match(/BLOCKCHAIN_[A-Z_]+/g) ?? [],
    );
    expect(envVars).toEqual(
      expect.arrayContaining([
        "BLOCKCHAIN_API_URL",
        "BLOCKCHAIN_API_KEY",
        "BLOCKCHAIN_TIMEOUT_MS",
        "BLOCKCHAIN_DEADLINE_MS",
        "BLOCKCHAIN_MAX_RETRIES",
      ]),
    );
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
