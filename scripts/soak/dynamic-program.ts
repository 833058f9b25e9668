/**
 * The soak's TypeScript program on the dynamic providers, run by the engine's nodejs language
 * host as `pulumi up` runs a program in its folder (the module's export is the program): adopts
 * the network `networkId` under the name `networkName` (retained on destroy, so that the next
 * `up` adopts it again), requests test tokens for `faucetAddress` once, and exports the nodes of
 * the network (`getNodesOutput`, secret as a whole; their ids, readable) and the first node's
 * endpoint (`getNodeConnectionsOutput`, secret). Config in the project's namespace, connection in
 * `blockchain:apiUrl` / `blockchain:apiKey` (secret).
 */
import * as pulumi from "@pulumi/pulumi";
import { FaucetDrip, Network, getNodeConnectionsOutput, getNodesOutput } from "../../src";

async function soakProgram() {
  const config = new pulumi.Config();
  const network = new Network(
    "network",
    { networkId: config.require("networkId"), name: config.require("networkName") },
    { retainOnDelete: true },
  );
  const drip = new FaucetDrip("drip", { address: config.require("faucetAddress") });
  const nodes = getNodesOutput({ network: network.networkId, orderBy: "name" });
  const connections = getNodeConnectionsOutput({ network: network.networkId, orderBy: "name" });
  return {
    networkName: network.name,
    nodeIds: pulumi.unsecret(nodes.apply((ns) => ns.map((n) => n.id))),
    nodes,
    firstNodeHttpsEndpoint: connections.apply((cs) => cs[0]?.httpsEndpoint ?? ""),
    dripOutcome: drip.outcome,
  };
}

export = soakProgram;
