/**
 * The two projects the soak cycles run under the real engine, each adopting one network of the
 * emulator, naming it, requesting test tokens once, and exporting its nodes:
 *
 * - `dynamic`: the TypeScript program of `./dynamic-program.ts` (compiled with the soak) on the
 *   dynamic providers, run by the nodejs language host from a project folder under
 *   `build/soak/projects/` (inside the repository, so that the host finds `@pulumi/pulumi`);
 * - `yaml`: a YAML program on the provider plugin (`bin/pulumi-resource-blockchain`, found through
 *   the `plugins:` path entry), like examples/yaml-quickstart, plus a `FaucetDrip`.
 *
 * Both read `networkId`, `networkName` and `faucetAddress` from the stack's config (project
 * namespace), and `blockchain:apiUrl` / `blockchain:apiKey` (secret) for the connection.
 */
import * as fs from "fs";
import * as path from "path";
import { yamlNetworkProgram } from "../yaml-program";
import { ROOT } from "./common";

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
 * Writes both projects into a folder of this run, `build/soak/projects/run-<pid>/`, and returns
 * their folders. The dynamic one holds a `Pulumi.yaml`, a `package.json` of its own (else the
 * language host would take the repository's `main`) and an `index.js` that re-exports the
 * compiled program.
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
