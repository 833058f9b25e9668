"""Adopts an existing network and names it, looks up its nodes (readable metadata, masked
endpoints) and exports the first node's endpoints and key as secrets, and an app's configuration
(`appConfig`, secret: what examples/python-app reads through a StackReference), every endpoint
proven first (`verify`).

Config (namespace `python-quickstart`): `networkId` (required), `networkName`.
Connection: `blockchain:apiUrl` and `blockchain:apiKey` (secret), or BLOCKCHAIN_API_URL / BLOCKCHAIN_API_KEY.
The SDK is the generated one of this repository: `pip install ./sdk/python` into the interpreter that
runs the program (its virtualenv, or PULUMI_PYTHON_CMD).
"""
import json

import pulumi
import pulumi_blockchain as blockchain

config = pulumi.Config()
network_id = config.require("networkId")
network_name = config.get("networkName") or "python-quickstart"

# `pulumi destroy` forgets the network and leaves it in the service (`force_destroy=True` deletes it).
network = blockchain.Network("network", network_id=network_id, name=network_name)

# Readable metadata and masked endpoints.
nodes = blockchain.get_nodes_output(network=network.network_id, order_by="name").nodes
# Endpoints and credentials, each proven before an output gets it (verify: it answers as an app calls it,
# on its network's chain, with a fresh head; else the run stops, naming the node and why): one Output,
# secret as a whole (there is no plain form).
connections = blockchain.get_node_connections_output(network=network.network_id, order_by="name", verify={}).connections

pulumi.export("networkName", network.name)
pulumi.export("protocol", network.protocol)
pulumi.export("nodeCount", nodes.apply(len))
pulumi.export("firstNodeId", nodes.apply(lambda ns: ns[0].id))
pulumi.export("firstNodeStatus", nodes.apply(lambda ns: ns[0].status))
pulumi.export("firstNodeHttpsEndpointMasked", nodes.apply(lambda ns: ns[0].https_endpoint_masked))
pulumi.export("firstNodeHttpsEndpoint", connections.apply(lambda cs: cs[0].https_endpoint))
pulumi.export("firstNodeAuthKey", connections.apply(lambda cs: cs[0].auth_key))
# An app's configuration, in one apply: secret, because it is computed from `connections`.
pulumi.export(
    "appConfig",
    connections.apply(
        lambda cs: json.dumps([{"name": c.name, "rpc": c.https_endpoint, "ws": c.wss_endpoint} for c in cs])
    ),
)
