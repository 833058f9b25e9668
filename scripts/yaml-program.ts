/**
 * The `Pulumi.yaml` of the soak's YAML program on the provider plugin (the upgrade baselines record its
 * like): a `Network` adopting `networkId` as `networkName` (retained on destroy), a `FaucetDrip` to
 * `faucetAddress`, and `getNodes` and `getNodeConnections` of that network; `name` is the project's (its
 * config namespace), `outputs` the stack outputs, name → value (`${network.name}`, ...).
 */
export function yamlNetworkProgram(p: {
  name: string;
  description: string;
  pluginDir: string;
  outputs: Record<string, string>;
}): string {
  const invoke = (variable: string, fn: string) =>
    `  ${variable}:\n    fn::invoke:\n      function: blockchain:index:${fn}\n      arguments:\n` +
    `        network: \${network.networkId}\n        orderBy: name\n      return: ${variable}\n`;
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
${invoke("nodes", "getNodes")}${invoke("connections", "getNodeConnections")}outputs:
${outputs.join("")}`;
}
