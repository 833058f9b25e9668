import { maskEndpoint } from "../../src/functions/mask";

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

  test("a value that is not a URL is masked whole", () => {
    expect(maskEndpoint("not a url 3c6e0b8a9c15")).toBe("***");
  });
});
