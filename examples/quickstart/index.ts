import * as pulumi from "@pulumi/pulumi";
import {
  FaucetDrip,
  getNodeConnectionsOutput,
  getNodeOutput,
  getNodesOutput,
  Network,
} from "pulumi-blockchain-nodes";

/**
 * Adopts an existing network and names it, looks up its nodes (readable metadata, masked
 * endpoints), exports the first node's endpoints and key as secrets (from
 * `getNodeConnectionsOutput`, secret as a whole) and requests test tokens once.
 *
 * Config (namespace `quickstart`): `networkId` (required), `networkName`, `faucetAddress`,
 * `deleteOnDestroy` (default false: `pulumi destroy` stops managing the network and leaves it in
 * place; set true to delete it, which the service refuses while the network still has nodes).
 * Connection: `blockchain:apiUrl` and `blockchain:apiKey` (secret), or BLOCKCHAIN_API_URL / BLOCKCHAIN_API_KEY.
 */
async function quickstart() {
  const config = new pulumi.Config("quickstart");
  const networkId = config.require("networkId");
  const networkName = config.get("networkName") ?? "quickstart-mainnet";
  const faucetAddress = config.get("faucetAddress");
  const deleteOnDestroy = config.getBoolean("deleteOnDestroy") ?? false;

  const network = new Network("main", { networkId, name: networkName }, { retainOnDelete: !deleteOnDestroy });

  // Every node of the adopted network, ordered by name: readable metadata and masked endpoints.
  const nodes = getNodesOutput({ network: network.networkId, orderBy: "name" });
  const firstId = nodes.apply((ns) => ns[0]?.id ?? "");
  const first = getNodeOutput({ id: firstId });
  // The first node's endpoints and credentials: one Output, secret as a whole, plain strings inside.
  const firstConnection = getNodeConnectionsOutput({ id: firstId }).apply((cs) => cs[0]);

  const drip = faucetAddress ? new FaucetDrip("tokens", { address: faucetAddress }) : undefined;

  return {
    networkId: network.networkId,
    networkName: network.name,
    protocol: network.protocol,
    publicNetwork: network.publicNetwork,
    networkStatus: network.status,
    nodeCount: nodes.apply((ns) => ns.length),
    nodes: nodes.apply((ns) =>
      ns.map((n) => ({
        id: n.id,
        name: n.name,
        status: n.status,
        provider: n.provider,
        region: n.region,
        httpsEndpoint: n.httpsEndpointMasked ?? "",
      })),
    ),
    firstNodeName: first.name,
    // Secret, since they come from the connections Output.
    firstNodeHttpsEndpoint: firstConnection.httpsEndpoint,
    firstNodeWssEndpoint: firstConnection.wssEndpoint,
    firstNodeAuthKey: firstConnection.authKey,
    firstNodeHttpsEndpointMasked: first.httpsEndpointMasked,
    faucetAmountSentWei: drip?.amountSent,
    faucetTransaction: drip?.transaction,
  };
}

// The nodejs runtime calls the module's exported function and uses its result as the stack outputs;
// `import quickstart from "./examples/quickstart"` gets the same function for inline programs.
export = quickstart;
