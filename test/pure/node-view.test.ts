/** The metadata view of a node holds only masked endpoints; the connection view exactly what was sent. */
import type { Node } from "../../src/api";
import { NODE_SECRET_FIELDS } from "../../src/api";
import { toNode } from "../../src/api/mapping";
import { wireNode } from "../helpers/client";
import { toNodeConnection, toNodeResult } from "../../src/provider";

const KEY = "3c6e0b8a9c15224a8228b9a98ca1531d";

const node: Node = toNode(
  wireNode({
    provider: "aws",
    region: "us-east-1",
    details: {
      mode: "archive",
      version: "1.9.9",
      api_namespaces: ["net", "eth", "web3"],
      https_endpoint: `https://nd-123-456-789.p2pify.com/${KEY}`,
      wss_endpoint: `wss://ws-nd-123-456-789.p2pify.com/${KEY}`,
      auth_username: "user-name",
      auth_password: "pass-word-pass-word-pass-word",
      auth_key: KEY,
    },
  }),
);

describe("toNodeResult", () => {
  test("metadata flattened, masked twins of the endpoints present, nothing secret", () => {
    const result = toNodeResult(node);
    const { details: _details, ...metadata } = node;
    expect(Object.keys(metadata)).toHaveLength(12);
    expect(result).toEqual({
      ...metadata,
      mode: "archive",
      version: "1.9.9",
      apiNamespaces: ["net", "eth", "web3"],
      httpsEndpointMasked: "https://nd-123-456-789.p2pify.com/***",
      wssEndpointMasked: "wss://ws-nd-123-456-789.p2pify.com/***",
    });
    for (const field of NODE_SECRET_FIELDS) expect(field in result).toBe(false);
  });

  test("a node whose details are hidden (not the owner's): no twin, no undefined field", () => {
    const result = toNodeResult({ ...node, details: {}, creator: undefined });
    expect(Object.values(result)).not.toContain(undefined);
    expect(Object.keys(result)).not.toEqual(
      expect.arrayContaining(["httpsEndpointMasked", "mode", "creator"]),
    );
  });

  test("a credential anywhere in an endpoint is masked with the node's own credentials", () => {
    const result = toNodeResult({
      ...node,
      details: {
        graphqlEndpoint: "https://user-name:pass-word-pass-word-pass-word@nd.example.com/graphql",
        authUsername: "user-name",
      },
    });
    expect(result.graphqlEndpointMasked).toBe("https://***@nd.example.com/graphql");
  });
});

describe("toNodeConnection", () => {
  test("id, name and exactly the endpoints and credentials sent, as plain strings; no other metadata, no undefined field", () => {
    expect(toNodeConnection(node)).toEqual({
      id: "ND-123-456-789",
      name: "My Ethereum archive node",
      httpsEndpoint: node.details.httpsEndpoint,
      wssEndpoint: node.details.wssEndpoint,
      authUsername: "user-name",
      authPassword: "pass-word-pass-word-pass-word",
      authKey: KEY,
    });
    const c = toNodeConnection({ ...node, details: { httpsEndpoint: "https://h.example.com/x" } });
    expect(c).toEqual({ id: node.id, name: node.name, httpsEndpoint: "https://h.example.com/x" });
  });
});
