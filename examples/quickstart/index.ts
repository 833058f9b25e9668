import * as pulumi from "@pulumi/pulumi";
import { FaucetDrip, getNodeOutput, getNodesOutput, Network } from "pulumi-blockchain-nodes";

/**
 * Adopts an existing network and names it, looks up its nodes (`getNodesOutput`, secret as a
 * whole: metadata, masked twins, endpoints and credentials), exports a readable summary
 * (`pulumi.unsecret` of the metadata only), the first node's endpoints and key as secrets
 * (`getNodeOutput({ id, verify: true }).httpsEndpoint`: proven first), an app's ordered list of
 * proven endpoints (`rpcUrls`, a healthy set: `verify: { minVerified }`), and requests test tokens once.
 *
 * Config (namespace `quickstart`): `networkId` (required), `networkName`, `faucetAddress`,
 * `minVerified` (default 1: how many running nodes must pass for `rpcUrls`), `deleteOnDestroy`
 * (default false: `pulumi destroy` forgets the network and leaves it in the service; true sets
 * `forceDestroy`, and destroy deletes it, which the service refuses while the network still has nodes).
 * Connection: `blockchain:apiUrl` and `blockchain:apiKey` (secret), or BLOCKCHAIN_API_URL / BLOCKCHAIN_API_KEY.
 */
async function quickstart() {
  const config = new pulumi.Config("quickstart");
  const networkId = config.require("networkId");
  const networkName = config.get("networkName") ?? "quickstart-mainnet";
  const faucetAddress = config.get("faucetAddress");
  const minVerified = config.getNumber("minVerified") ?? 1;
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
  // The first node, its endpoint proven before anything gets it (`verify`: it answers as an app
  // calls it, on its network's chain, with a fresh head; else the run stops, naming why):
  // getNodeOutput(...).httpsEndpoint is the endpoint, a secret Output<string>.
  const first = getNodeOutput({ id: firstId, verify: true });
  // An app's ordered list (a primary, then fallbacks), from the running nodes of the first one's
  // network that pass the same check: a healthy set, so at least `minVerified` must pass; only those
  // are returned, the freshest head first, then the lowest latency; each node left out is named in
  // one warning of the run. Secret.
  const healthy = getNodesOutput({ network: first.network, status: "running", verify: { minVerified } });

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
    rpcUrls: healthy.apply((ns) => JSON.stringify(ns.map((n) => n.httpsEndpoint))),
    // Readable: the healthy set's order, and what was proven of each node (no URL, no credential).
    healthyNodes: pulumi.unsecret(
      healthy.apply((ns) =>
        ns.map((n) => ({
          id: n.id,
          headAgeSeconds: n.verified?.headAgeSeconds,
          latencyMs: n.verified?.latencyMs,
        })),
      ),
    ),
    faucetAmountSentWei: drip?.amountSent,
    faucetTransaction: drip?.transaction,
  };
}

// The nodejs runtime calls the module's exported function and uses its result as the stack outputs;
// `import quickstart from "./examples/quickstart"` gets the same function for inline programs.
export = quickstart;
