/**
 * The soak's TypeScript program (the module's export): adopts `networkId` as `networkName`,
 * retained on destroy so that the next `up` adopts it again; a FaucetDrip; the network's nodes.
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
