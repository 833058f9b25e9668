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
infra_stack = config.require("infraStack")
infra = pulumi.StackReference(infra_stack)


def need(name):
    """An output of the infra stack; a missing one (not deployed yet) fails in one line, not a traceback."""

    def check(value):
        if value is None:
            raise pulumi.RunError(f"{infra_stack} has no output {name}: run `pulumi up` there first.")
        return value

    return infra.get_output(name).apply(check)


app_config = need("appConfig")  # secret: JSON, the nodes with their endpoints
rpc_url = need("firstNodeHttpsEndpoint")  # secret

# The app's environment (a container's env, a Kubernetes Secret's data): secret.
app_environment = pulumi.Output.all(rpc=rpc_url, nodes=app_config).apply(
    lambda v: {"RPC_URL": v["rpc"], "NODES_JSON": v["nodes"]}
)
pulumi.export("appEnvironment", app_environment)
pulumi.export("nodeCount", app_config.apply(lambda nodes: len(json.loads(nodes))))  # secret too
pulumi.export("networkName", need("networkName"))  # readable
