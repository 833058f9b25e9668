import { maskEndpoint } from "../../src/provider/node-views";

describe("maskEndpoint", () => {
  test("replaces a key in the path, known credentials and user info; keeps scheme, host and the rest", () => {
    expect(maskEndpoint("https://nd-123-456-789.p2pify.com/3c6e0b8a9c15224a8228b9a98ca1531d")).toBe(
      "https://nd-123-456-789.p2pify.com/***",
    );
    expect(maskEndpoint("https://nd-1.example.com/graphql")).toBe("https://nd-1.example.com/graphql");
    expect(maskEndpoint("https://nd-1.example.com")).toBe("https://nd-1.example.com");
    expect(maskEndpoint("https://user-name:pass-word@nd-1.example.com/rpc")).toBe(
      "https://***@nd-1.example.com/rpc",
    );
    expect(maskEndpoint("wss://ws.example.com/v1/short1?token=tok3n&x=1", ["short1", "tok3n"])).toBe(
      "wss://ws.example.com/v1/***?token=***&x=1",
    );
    expect(maskEndpoint("https://ws.example.com/prefix-secretvalue-x", ["secretvalue"])).toBe(
      "https://ws.example.com/prefix-***-x",
    );
  });
});

const HEX = "3c6e0b8a9c15224a8228b9a98ca1531d";
const B64 = "ab12/Cd34+Ef56gh78==";

describe("maskEndpoint: known credentials anywhere in the URL", () => {
  test("a key used as a query parameter name", () => {
    expect(maskEndpoint("https://h.example.com/rpc?tok3nabc", ["tok3nabc"])).toBe(
      "https://h.example.com/rpc?***",
    );
    expect(maskEndpoint("https://h.example.com/rpc?tok3nabc=1", ["tok3nabc"])).toBe(
      "https://h.example.com/rpc?***=1",
    );
  });

  test("a base64 key with / + = spanning path segments, raw or percent-encoded", () => {
    expect(maskEndpoint(`https://h.example.com/v1/${B64}/rpc`, [B64])).toBe(
      "https://h.example.com/v1/***/rpc",
    );
    expect(maskEndpoint(`https://h.example.com/v1/${encodeURIComponent(B64)}/rpc`, [B64])).toBe(
      "https://h.example.com/v1/***/rpc",
    );
    expect(maskEndpoint(`https://h.example.com/?key=${B64}`, [B64])).toBe("https://h.example.com/?key=***");
  });

  test("a key in a host label, whatever its case", () => {
    expect(maskEndpoint("https://MyKey1234.nodes.example.com/", ["mykey1234"])).toBe(
      "https://***.nodes.example.com/",
    );
  });

  test("a key in a fragment", () => {
    expect(maskEndpoint("https://h.example.com/x#tok3nabc", ["tok3nabc"])).toBe(
      "https://h.example.com/x#***",
    );
  });

  test("if a credential would still be readable (odd encoding), the whole URL is masked", () => {
    expect(maskEndpoint("https://h.example.com/%61bcdefgh/x", ["abcdefgh"])).toBe("***");
  });
});

describe("maskEndpoint: key-like text with no credentials passed", () => {
  test.each([
    [`https://${HEX}.nodes.example.com/`, "https://***.nodes.example.com/"],
    [`https://h.example.com/${HEX}.json`, "https://h.example.com/***.json"],
    [`https://h.example.com/v1/${HEX}/rpc`, "https://h.example.com/v1/***/rpc"],
    [`https://h.example.com/?${HEX}`, "https://h.example.com/?***"],
    [`https://h.example.com/?${HEX}=1`, "https://h.example.com/?***=1"],
    [`https://h.example.com/?cursor=${HEX}&page=2`, "https://h.example.com/?cursor=***&page=2"],
    [`https://h.example.com/x#${HEX}`, "https://h.example.com/x#***"],
    [`https://h.example.com/x#/keys/${HEX}`, "https://h.example.com/x#/keys/***"],
    // An unknown base64 key split by `/`: the parts with unusual words or `+`/`=` go; a part that
    // alone reads like an ordinary word (`ab12`) stays, but the key as a whole is never shown.
    [`https://h.example.com/v1/${B64}/rpc`, "https://h.example.com/v1/ab12/***/rpc"],
    ["https://h.example.com/v1/Zm9vYmFy0/YmF6cXV4+abc=/rpc", "https://h.example.com/v1/***/***/rpc"],
  ])("%s", (url, masked) => {
    expect(maskEndpoint(url)).toBe(masked);
  });

  test("the value of a secret-named parameter is masked however short", () => {
    expect(maskEndpoint("https://h.example.com/?apikey=abc")).toBe("https://h.example.com/?apikey=***");
    expect(maskEndpoint("https://h.example.com/?x=1&access_token=a&sig=b")).toBe(
      "https://h.example.com/?x=1&access_token=***&sig=***",
    );
  });

  test("user info of any form, and of URLs nested in the query", () => {
    expect(maskEndpoint("https://user@h.example.com/")).toBe("https://***@h.example.com/");
    expect(maskEndpoint("https://h.example.com/?next=https://u:p@other.example/")).toBe(
      "https://h.example.com/?next=https://***@other.example/",
    );
  });
});

describe("maskEndpoint: stays readable", () => {
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
  ])("%s", (url) => {
    expect(maskEndpoint(url)).toBe(url);
  });

  test("keeps readable parts around a masked key", () => {
    expect(maskEndpoint(`https://beacon-nd-123-456-789.p2pify.com/${HEX}/eth/v1/beacon/genesis`)).toBe(
      "https://beacon-nd-123-456-789.p2pify.com/***/eth/v1/beacon/genesis",
    );
  });

  test("anything that is not a URL is masked whole", () => {
    expect(maskEndpoint("")).toBe("***");
    expect(maskEndpoint("not a url 3c6e0b8a9c15")).toBe("***");
    expect(maskEndpoint(HEX)).toBe("***");
    expect(maskEndpoint(undefined as unknown as string)).toBe("***");
  });
});
