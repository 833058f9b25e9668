/**
 * Writes `schema.json`, the package schema of the `blockchain` provider plugin, from the model
 * and the TypeScript surface's doc comments (`npm run schema`). `--check` compares instead and
 * fails when the file is stale. The plugin serves this file; the SDKs are generated from it.
 */
import * as fs from "fs";
import * as path from "path";
import { buildSchema } from "./build-schema";
import { surfaceDocs } from "./schema-docs";

/** The schema as `schema.json` holds it: two-space JSON and a final newline. */
export function schemaText(repo: string): string {
  const version = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")).version as string;
  return `${JSON.stringify(buildSchema(version, surfaceDocs(path.join(repo, "src"))), null, 2)}\n`;
}

if (require.main === module) {
  const repo = process.cwd(); // npm runs scripts at the package root
  const file = path.join(repo, "schema.json");
  const text = schemaText(repo);
  if (process.argv.includes("--check")) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    if (current !== text) {
      console.error("schema.json is stale: run `npm run schema` and commit it.");
      process.exit(1);
    }
    console.log("schema.json is up to date.");
  } else {
    fs.writeFileSync(file, text);
    console.log(`wrote ${file}`);
  }
}
