import * as pulumi from "@pulumi/pulumi";

/**
 * A second stack that feeds node endpoints into an app deployment: it reads the quickstart
 * stack's outputs through a StackReference and builds the app's configuration from them.
 * The endpoint stays secret all the way: only masked values are readable.
 *
 * Config (namespace `feed-app`): `quickstartStack` (required), e.g. `organization/quickstart/dev`.
 */
async function feedApp() {
  const config = new pulumi.Config("feed-app");
  const quickstart = new pulumi.StackReference(config.require("quickstartStack"));

  const rpcUrl = quickstart.requireOutput("firstNodeHttpsEndpoint") as pulumi.Output<string>;
  const wsUrl = quickstart.requireOutput("firstNodeWssEndpoint") as pulumi.Output<string>;

  // The app's environment, as a deployment tool would take it: secret, because it holds the endpoints.
  const appEnvironment = pulumi
    .all([rpcUrl, wsUrl])
    .apply(([rpc, ws]) => JSON.stringify({ RPC_URL: rpc, WS_URL: ws, CHAIN: "ethereum" }));

  return {
    appEnvironment,
    rpcUrlForDisplay: quickstart.requireOutput("firstNodeHttpsEndpointMasked"),
    network: quickstart.requireOutput("networkName"),
  };
}

// The nodejs runtime calls the module's exported function and uses its result as the stack outputs;
// `import feedApp from "./examples/feed-app"` gets the same function for inline programs.
export = feedApp;
