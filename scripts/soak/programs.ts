/**
 * The soak's two projects, each adopting a network, naming it, requesting test tokens once and
 * exporting its nodes: `dynamic`, the TypeScript program of `./dynamic-program.ts` on the dynamic
 * providers; `yaml`, a YAML program on the provider plugin.
 */
import * as fs from "fs";
import * as path from "path";
import { yamlNetworkProgram } from "../yaml-program";
import { ROOT } from "../engine-sandbox";
import { nodejsProject } from "../harness";

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
  const outputs = { networkName: "${network.name}", nodes: "${nodes}", connections: "${connections}" };
  const program = yamlNetworkProgram({
    name: PROJECTS.yaml,
    description: "The soak's YAML program on the blockchain provider plugin.",
    pluginDir: path.join(ROOT, "bin"),
    outputs: { ...outputs, dripOutcome: "${drip.outcome}" },
  });
  fs.writeFileSync(path.join(yaml, "Pulumi.yaml"), program);
  return { root, dynamic, yaml };
}
