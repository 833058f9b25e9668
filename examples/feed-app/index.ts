import * as pulumi from "@pulumi/pulumi";

/**
 * A second stack that feeds node endpoints into an app deployment: it reads the quickstart
 * stack's outputs through a StackReference and builds the app's configuration from them: the
 * first node's endpoints, and the ordered list of every endpoint that passed the quickstart's
 * check in its last run (`RPC_URLS`: the freshest head first; the app's primary, then fallbacks).
 * The endpoints stay secret all the way: only masked values are readable.
 *
 * Config (namespace `feed-app`): `quickstartStack` (required), e.g. `organization/quickstart/dev`.
 */
async function feedApp() {
  const config = new pulumi.Config("feed-app");
  const quickstart = new pulumi.StackReference(config.require("quickstartStack"));

  const rpcUrl = quickstart.requireOutput("firstNodeHttpsEndpoint") as pulumi.Output<string>;
  const wsUrl = quickstart.requireOutput("firstNodeWssEndpoint") as pulumi.Output<string>;
  // A JSON list of proven endpoints, in the order the app tries them.
  const rpcUrls = quickstart.requireOutput("rpcUrls") as pulumi.Output<string>;

  // The app's environment, as a deployment tool would take it: secret, because it holds the endpoints.
  const appEnvironment = pulumi
    .all([rpcUrl, wsUrl, rpcUrls])
    .apply(([rpc, ws, urls]) =>
      JSON.stringify({ RPC_URL: rpc, WS_URL: ws, RPC_URLS: urls, CHAIN: "ethereum" }),
    );

  return {
    appEnvironment,
    rpcUrlForDisplay: quickstart.requireOutput("firstNodeHttpsEndpointMasked"),
    network: quickstart.requireOutput("networkName"),
  };
}

// The nodejs runtime calls the module's exported function and uses its result as the stack outputs;
// `import feedApp from "./examples/feed-app"` gets the same function for inline programs.
export = feedApp;
