/**
 * The YAML program on the provider plugin that both the soak (`./soak/programs.ts`) and the
 * upgrade baseline (`./record-upgrade-baseline.ts`) run: a `Network` adopting the network of the
 * config's `networkId` under the name `networkName` (left in place by destroy), a `FaucetDrip` to
 * `faucetAddress`, and `getNodes` and `getNodeConnections` invoked on that network. The projects
 * differ only in their name, description, plugin folder and outputs.
 */

/** What a project of {@link yamlNetworkProgram} sets. */
export interface YamlNetworkProgram {
  /** The project's name (and so its config namespace). */
  name: string;
  /** The project's description. */
  description: string;
  /** The folder of the provider plugin (the `plugins:` path entry). */
  pluginDir: string;
  /** The stack outputs, name → value (`${network.name}`, `${nodes}`, …), in order. */
  outputs: Record<string, string>;
}

/** A `variables:` entry invoking a list function on the program's network, ordered by name. */
function listInvoke(variable: string, fn: string): string {
  return [
    `  ${variable}:`,
    "    fn::invoke:",
    `      function: blockchain:index:${fn}`,
    "      arguments:",
    "        network: ${network.networkId}",
    "        orderBy: name",
    `      return: ${variable}`,
    "",
  ].join("\n");
}

/** The project's `Pulumi.yaml`. */
export function yamlNetworkProgram(p: YamlNetworkProgram): string {
  const outputs = Object.entries(p.outputs).map(([name, value]) => `  ${name}: ${value}\n`);
  return `name: ${p.name}
runtime: yaml
description: ${p.description}
plugins:
  providers:
    - name: blockchain
      path: ${p.pluginDir}
configuration:
  networkId:
    type: string
  networkName:
    type: string
  faucetAddress:
    type: string
resources:
  network:
    type: blockchain:index:Network
    properties:
      networkId: \${networkId}
      name: \${networkName}
    options:
      retainOnDelete: true
  drip:
    type: blockchain:index:FaucetDrip
    properties:
      address: \${faucetAddress}
variables:
${listInvoke("nodes", "getNodes")}${listInvoke("connections", "getNodeConnections")}outputs:
${outputs.join("")}`;
}
