import { maskEndpoint } from "../../src/provider/node-views";

const HEX = "3c6e0b8a9c15224a8228b9a98ca1531d";
const B64 = "ab12/Cd34+Ef56gh78==";
const H = "https://h.example.com";

describe("maskEndpoint", () => {
  const cases: [string, string, string[]?][] = [
    // a key in the path, user info; scheme, host and the rest kept
    [`https://nd-123-456-789.p2pify.com/${HEX}`, "https://nd-123-456-789.p2pify.com/***"],
    ["https://nd-1.example.com/graphql", "https://nd-1.example.com/graphql"],
    ["https://nd-1.example.com", "https://nd-1.example.com"],
    ["https://user-name:pass-word@nd-1.example.com/rpc", "https://***@nd-1.example.com/rpc"],
    // known credentials anywhere: path, query, part of a segment, query name, host label, fragment
    [
      "wss://ws.example.com/v1/short1?token=tok3n&x=1",
      "wss://ws.example.com/v1/***?token=***&x=1",
      ["short1", "tok3n"],
    ],
    ["https://ws.example.com/prefix-secretvalue-x", "https://ws.example.com/prefix-***-x", ["secretvalue"]],
    [`${H}/rpc?tok3nabc`, `${H}/rpc?***`, ["tok3nabc"]],
    [`${H}/rpc?tok3nabc=1`, `${H}/rpc?***=1`, ["tok3nabc"]],
    [`${H}/v1/${B64}/rpc`, `${H}/v1/***/rpc`, [B64]],
    [`${H}/v1/${encodeURIComponent(B64)}/rpc`, `${H}/v1/***/rpc`, [B64]],
    [`${H}/?key=${B64}`, `${H}/?key=***`, [B64]],
    ["https://MyKey1234.nodes.example.com/", "https://***.nodes.example.com/", ["mykey1234"]],
    [`${H}/x#tok3nabc`, `${H}/x#***`, ["tok3nabc"]],
    // a credential still readable (odd encoding): the whole URL goes
    [`${H}/%61bcdefgh/x`, "***", ["abcdefgh"]],
    // key-like text with no credentials passed
    [`https://${HEX}.nodes.example.com/`, "https://***.nodes.example.com/"],
    [`${H}/${HEX}.json`, `${H}/***.json`],
    [`${H}/v1/${HEX}/rpc`, `${H}/v1/***/rpc`],
    [`${H}/?${HEX}`, `${H}/?***`],
    [`${H}/?${HEX}=1`, `${H}/?***=1`],
    [`${H}/?cursor=${HEX}&page=2`, `${H}/?cursor=***&page=2`],
    [`${H}/x#${HEX}`, `${H}/x#***`],
    [`${H}/x#/keys/${HEX}`, `${H}/x#/keys/***`],
    // an unknown base64 key split by `/`: a part that reads like a word (`ab12`) may stay, never the whole
    [`${H}/v1/${B64}/rpc`, `${H}/v1/ab12/***/rpc`],
    [`${H}/v1/Zm9vYmFy0/YmF6cXV4+abc=/rpc`, `${H}/v1/***/***/rpc`],
    // a secret-named parameter however short; user info of any form, also nested in the query
    [`${H}/?apikey=abc`, `${H}/?apikey=***`],
    [`${H}/?x=1&access_token=a&sig=b`, `${H}/?x=1&access_token=***&sig=***`],
    ["https://user@h.example.com/", "https://***@h.example.com/"],
    [`${H}/?next=https://u:p@other.example/`, `${H}/?next=https://***@other.example/`],
    // readable parts kept around a masked key
    [
      `https://beacon-nd-123-456-789.p2pify.com/${HEX}/eth/v1/beacon/genesis`,
      "https://beacon-nd-123-456-789.p2pify.com/***/eth/v1/beacon/genesis",
    ],
    // anything that is not a URL is masked whole
    ["", "***"],
    ["not a url 3c6e0b8a9c15", "***"],
    [HEX, "***"],
    [undefined as unknown as string, "***"],
  ];
  // Every row gets its credentials (none: []), so jest passes no `done` in their place.
  test.each(cases.map(([url, masked, credentials = []]) => [url, masked, credentials] as const))(
    "%s → %s",
    (url, masked, credentials) => {
      expect(maskEndpoint(url, credentials)).toBe(masked);
    },
  );

  test.each([
    "https://nd-123-456-789.p2pify.com",
    "https://nd-123-456-789.p2pify.com/",
    "wss://ws-nd-123-456-789.p2pify.com",
    "https://beacon-nd-123-456-789.p2pify.com/eth/v1/beacon/genesis",
    "https://eth-mainnet.example.com/v1/rpc",
    "wss://eth-mainnet.example.com/ws",
    "https://api.example.com/v1/networks/NW-100-000-1/nodes/ND-123-456-789",
    "https://avax.example.com/ext/bc/C/rpc?page=2&limit=100",
    "http://localhost:8545/",
    "http://127.0.0.1:8545/rpc",
  ])("%s stays readable", (url) => {
    expect(maskEndpoint(url)).toBe(url);
  });
});
