import * as pulumi from "@pulumi/pulumi";
import { FaucetDrip, getNodeOutput, getNodesOutput, Network } from "pulumi-blockchain-nodes";

/**
 * Adopts an existing network and names it, looks up its nodes (`getNodesOutput`, secret as a
 * whole: metadata, masked twins, endpoints and credentials), exports a readable summary
 * (`pulumi.unsecret` of the metadata only) and the first node's endpoints and key as secrets
 * (`getNodeOutput({ id }).httpsEndpoint`), and requests test tokens once.
 *
 * Config (namespace `quickstart`): `networkId` (required), `networkName`, `faucetAddress`,
 * `deleteOnDestroy` (default false: `pulumi destroy` forgets the network and leaves it in the
 * service; true sets `forceDestroy`, and destroy deletes it, which the service refuses while the
 * network still has nodes).
 * Connection: `blockchain:apiUrl` and `blockchain:apiKey` (secret), or BLOCKCHAIN_API_URL / BLOCKCHAIN_API_KEY.
 */
async function quickstart() {
  const config = new pulumi.Config("quickstart");
  const networkId = config.require("networkId");
  const networkName = config.get("networkName") ?? "quickstart-mainnet";
  const faucetAddress = config.get("faucetAddress");
  const deleteOnDestroy = config.getBoolean("deleteOnDestroy") ?? false;

  const network = new Network("main", { networkId, name: networkName, forceDestroy: deleteOnDestroy });

  // Every node of the adopted network, ordered by name: one Output, secret as a whole.
  const nodes = getNodesOutput({ network: network.networkId, orderBy: "name" });
  // Metadata taken out of it and unwrapped on purpose: readable (no endpoint, no credential).
  const summary = pulumi.unsecret(
    nodes.apply((ns) =>
      ns.map((n) => ({
        id: n.id,
        name: n.name,
        status: n.status,
        provider: n.provider,
        region: n.region,
        httpsEndpoint: n.httpsEndpointMasked ?? "",
      })),
    ),
  );
  // A network without nodes ends the program with this one line, not a TypeError: check first.
  const firstId = summary.apply((ns) => {
    if (ns.length === 0) {
      throw new pulumi.RunError(`Network ${networkId} has no node: add one, then run \`pulumi up\` again.`);
    }
    return ns[0].id;
  });
  // The first node: getNodeOutput({ id }).httpsEndpoint is the endpoint, a secret Output<string>.
  const first = getNodeOutput({ id: firstId });

  const drip = faucetAddress ? new FaucetDrip("tokens", { address: faucetAddress }) : undefined;

  return {
    networkId: network.networkId,
    networkName: network.name,
    protocol: network.protocol,
    publicNetwork: network.publicNetwork,
    networkStatus: network.status,
    nodeCount: summary.apply((ns) => ns.length),
    nodes: summary,
    firstNodeName: pulumi.unsecret(first.name),
    // Secret: endpoints and credentials of the node.
    firstNodeHttpsEndpoint: first.httpsEndpoint,
    firstNodeWssEndpoint: first.wssEndpoint,
    firstNodeAuthKey: first.authKey,
    firstNodeHttpsEndpointMasked: pulumi.unsecret(first.apply((n) => n.httpsEndpointMasked ?? "")),
    faucetAmountSentWei: drip?.amountSent,
    faucetTransaction: drip?.transaction,
  };
}

// The nodejs runtime calls the module's exported function and uses its result as the stack outputs;
// `import quickstart from "./examples/quickstart"` gets the same function for inline programs.
export = quickstart;
