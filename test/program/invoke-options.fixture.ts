/**
 * Invoke options as a strict program writes them: compiled by test/program/invoke-options.test.ts
 * with the `pulumi new typescript` compiler options. Each `@ts-expect-error` line must stay an error.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  getNode,
  getNodeConnectionsOutput,
  getNodeOutput,
  getNodes,
  getNodesOutput,
  Network,
  type NodeResult,
} from "pulumi-blockchain-nodes";

export function lookups(parent: pulumi.ComponentResource, opts: pulumi.ComponentResourceOptions) {
  const network = new Network("main", { networkId: "NW-100-000-1", name: "mainnet" }, { parent });
  const id = "ND-100-000-001";
  const rpcUrl: pulumi.Output<string> = getNodeOutput({ id }, { dependsOn: [network] }).httpsEndpoint;
  const nodes = getNodesOutput({ network: network.networkId }, { dependsOn: network, parent });
  const conns = getNodeConnectionsOutput({ id }, { dependsOn: pulumi.output([network]), parent });
  const inherited = getNodeOutput({ id }, pulumi.invokeOutputOptionsFromResourceOptions(opts));
  const ignored = getNodesOutput({}, { provider: undefined, version: "1.0.0", pluginDownloadURL: "" });
  const meta: Promise<NodeResult> = getNode({ id }, { parent });
  const metas: Promise<NodeResult[]> = getNodes({}, pulumi.invokeOptionsFromResourceOptions(opts));
  // @ts-expect-error a Promise form cannot wait for resources: dependsOn is the Output form's option
  const waited = getNode({ id }, { dependsOn: [network] });
  // @ts-expect-error dependsOn lists resources, not ids
  const byId = getNodesOutput({}, { dependsOn: ["NW-100-000-1"] });
  return { rpcUrl, nodes, conns, inherited, ignored, meta, metas, waited, byId };
}
