/**
 * The soak's two projects, each adopting a network, naming it, requesting test tokens once and
 * exporting its nodes: `dynamic`, the TypeScript program of `./dynamic-program.ts` on the dynamic
 * providers; `yaml`, a YAML program on the provider plugin.
 */
import * as fs from "fs";
import * as path from "path";
import { yamlNetworkProgram } from "../yaml-program";
import { ROOT } from "../engine-sandbox";

/** The resource types of each program's network and drip, as the state names them. */
export const TYPES = {
  dynamic: {
    network: "pulumi-nodejs:dynamic/blockchain:Network",
    drip: "pulumi-nodejs:dynamic/blockchain:FaucetDrip",
  },
  yaml: { network: "blockchain:index:Network", drip: "blockchain:index:FaucetDrip" },
} as const;

/** The project names (and so the config namespaces). */
export const PROJECTS = { dynamic: "soak-dynamic", yaml: "soak-yaml" } as const;

/**
 * Writes both projects into `build/soak/projects/run-<pid>/` (inside the checkout, so that the
 * nodejs host finds `@pulumi/pulumi`); the dynamic one has a `package.json` of its own, else the
 * host would take the checkout's `main`.
 */
export function writeProjects(): { root: string; dynamic: string; yaml: string } {
  const root = path.join(ROOT, "build", "soak", "projects", `run-${process.pid}`);
  const [dynamic, yaml] = [path.join(root, PROJECTS.dynamic), path.join(root, PROJECTS.yaml)];
  fs.rmSync(root, { recursive: true, force: true });
  for (const dir of [dynamic, yaml]) fs.mkdirSync(dir, { recursive: true });
  const compiled = path.join(__dirname, "dynamic-program.js");
  if (!fs.existsSync(compiled))
    throw new Error(`${compiled} is missing: compile with tsc -p tsconfig.soak.json`);
  const write = (dir: string, file: string, text: string) => fs.writeFileSync(path.join(dir, file), text);
  write(dynamic, "Pulumi.yaml", `name: ${PROJECTS.dynamic}\nruntime: nodejs\nmain: index.js\n`);
  write(dynamic, "package.json", JSON.stringify({ name: PROJECTS.dynamic, main: "index.js" }));
  write(dynamic, "index.js", `module.exports = require(${JSON.stringify(compiled)});\n`);
  const outputs = { networkName: "${network.name}", nodes: "${nodes}", connections: "${connections}" };
  const program = yamlNetworkProgram({
    name: PROJECTS.yaml,
    description: "The soak's YAML program on the blockchain provider plugin.",
    pluginDir: path.join(ROOT, "bin"),
    outputs: { ...outputs, dripOutcome: "${drip.outcome}" },
  });
  write(yaml, "Pulumi.yaml", program);
  return { root, dynamic, yaml };
}
