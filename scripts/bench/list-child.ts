/** One process listing every node with a default client: `node list-child.js <url> <key>`; sends {ms, nodes}. */
import { NodeServiceClient } from "../../src/api";

const [apiUrl, apiKey] = process.argv.slice(2);
const started = performance.now();
new NodeServiceClient({ apiUrl, apiKey })
  .listAllNodes(undefined, { limit: 1_000_000 })
  .then((nodes) =>
    process.send!({ ms: performance.now() - started, nodes: nodes.length }, () => process.exit(0)),
  )
  .catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
