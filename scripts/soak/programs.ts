/** The soak's projects: the TypeScript program on the dynamic providers, the YAML program on the plugin. */
import * as fs from "fs";
import * as path from "path";
import { ROOT } from "../engine-sandbox";
import { nodejsProject } from "../harness";

/** Each program's resource types in state: `<prefix>:Network` and `<prefix>:FaucetDrip`. */
export const TYPE_PREFIX = { dynamic: "pulumi-nodejs:dynamic/blockchain", yaml: "blockchain:index" } as const;

/** The project names (and so the config namespaces). */
export const PROJECTS = { dynamic: "soak-dynamic", yaml: "soak-yaml" } as const;

/** Writes both projects into `build/soak/projects/run-<pid>/`. */
export function writeProjects(): { root: string; dynamic: string; yaml: string } {
  const root = path.join(ROOT, "build", "soak", "projects", `run-${process.pid}`);
  const [dynamic, yaml] = [path.join(root, PROJECTS.dynamic), path.join(root, PROJECTS.yaml)];
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(yaml, { recursive: true });
  const compiled = path.join(__dirname, "dynamic-program.js");
  if (!fs.existsSync(compiled))
    throw new Error(`${compiled} is missing: compile with tsc -p tsconfig.soak.json`);
  nodejsProject(dynamic, PROJECTS.dynamic, `module.exports = require(${JSON.stringify(compiled)});\n`);
  const program = fs.readFileSync(path.join(ROOT, "scripts", "soak", "yaml", "Pulumi.yaml"), "utf8");
  fs.writeFileSync(path.join(yaml, "Pulumi.yaml"), program.replace("__PLUGIN_DIR__", path.join(ROOT, "bin")));
  return { root, dynamic, yaml };
}
