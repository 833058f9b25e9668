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

/** The YAML program on the provider plugin (the `Pulumi.yaml` of its project). */
export function yamlProgram(): string {
  return yamlNetworkProgram({
    name: PROJECTS.yaml,
    description: "The soak's YAML program on the blockchain provider plugin.",
    pluginDir: path.join(ROOT, "bin"),
    outputs: {
      networkName: "${network.name}",
      nodes: "${nodes}",
      connections: "${connections}",
      dripOutcome: "${drip.outcome}",
    },
  });
}

/**
 * Writes both projects into `build/soak/projects/run-<pid>/` (inside the checkout, so that the
 * nodejs host finds `@pulumi/pulumi`); the dynamic one has a `package.json` of its own, else the
 * host would take the checkout's `main`.
 */
export function writeProjects(): { root: string; dynamic: string; yaml: string } {
  const root = path.join(ROOT, "build", "soak", "projects", `run-${process.pid}`);
  const dynamic = path.join(root, PROJECTS.dynamic);
  const yaml = path.join(root, PROJECTS.yaml);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(dynamic, { recursive: true });
  fs.mkdirSync(yaml, { recursive: true });
  const compiled = path.join(__dirname, "dynamic-program.js");
  if (!fs.existsSync(compiled))
    throw new Error(`${compiled} is missing: compile with tsc -p tsconfig.soak.json`);
  fs.writeFileSync(
    path.join(dynamic, "Pulumi.yaml"),
    `name: ${PROJECTS.dynamic}\nruntime: nodejs\nmain: index.js\ndescription: The soak's TypeScript program on the dynamic providers.\n`,
  );
  fs.writeFileSync(
    path.join(dynamic, "package.json"),
    JSON.stringify({ name: PROJECTS.dynamic, main: "index.js" }),
  );
  fs.writeFileSync(
    path.join(dynamic, "index.js"),
    `module.exports = require(${JSON.stringify(path.relative(dynamic, compiled).split(path.sep).join("/"))});\n`,
  );
  fs.writeFileSync(path.join(yaml, "Pulumi.yaml"), yamlProgram());
  return { root, dynamic, yaml };
}
