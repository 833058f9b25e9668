"""An app's stack: reads the outputs of the examples/python-quickstart stack through a StackReference
and builds the app's environment from them: endpoints that the quickstart's last run proved
(`verify`) before it exported them. Secret outputs stay secret here, and so does everything
computed from them: `appEnvironment` and `nodeCount` are secret, `networkName` readable. It calls no
service and needs no plugin.

Config (namespace `python-app`): `infraStack` (required), the quickstart's stack, fully qualified:
    pulumi config set infraStack organization/python-quickstart/dev
    pulumi up
    pulumi stack output appEnvironment --show-secrets   # only when you need to see it
"""
import json

import pulumi

config = pulumi.Config()
# "<organization>/python-quickstart/dev"; with a self-managed backend (file://, s3://, ...) the
# organization is the word "organization".
infra = pulumi.StackReference(config.require("infraStack"))

app_config = infra.require_output("appConfig")  # secret: JSON, the nodes with their endpoints
rpc_url = infra.require_output("firstNodeHttpsEndpoint")  # secret

# The app's environment (a container's env, a Kubernetes Secret's data): secret.
app_environment = pulumi.Output.all(rpc=rpc_url, nodes=app_config).apply(
    lambda v: {"RPC_URL": v["rpc"], "NODES_JSON": v["nodes"]}
)
pulumi.export("appEnvironment", app_environment)
pulumi.export("nodeCount", app_config.apply(lambda nodes: len(json.loads(nodes))))  # secret too
pulumi.export("networkName", infra.require_output("networkName"))  # readable
