import { call, listAll, withEmulator } from "../helpers/emulator";

describe("PATCH and DELETE /v1/networks/{id}/", () => {
  const emulator = withEmulator({ seed: 9 }, { each: true });
  const send = (method: string, id: string, options: { body?: unknown; key?: string } = {}) =>
    call(emulator(), `/v1/networks/${id}/`, { method, ...options });
  const patch = (id: string, body?: unknown) => send("PATCH", id, { body });

  test("an empty body or no body reads the network unchanged, with its nodes as listed; read-only and unknown fields are ignored", async () => {
    const id = emulator().fixtures.networkWithNodes;
    const empty = await patch(id, {});
    expect([empty.status, empty.headers.get("content-type")]).toEqual([200, "application/json"]);
    expect(empty.json).toMatchObject({
      id,
      name: "Ethereum Mainnet",
      project: emulator().fixtures.project,
      protocol: "ethereum",
      configuration: { network: "ethereum-mainnet" },
      details: {},
      status: "ok",
    });
    expect(empty.json.creator.organization.id).toBe(emulator().fixtures.organization);
    expect(empty.json.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(empty.json.nodes).toEqual(await listAll(emulator(), `network=${id}`));
    expect((await patch(id)).json).toEqual(empty.json);
    expect(emulator().admin.getNetwork(id)).toEqual(empty.json);
    const readOnly = {
      protocol: "bitcoin",
      creator: { id: "UR-1-1-1" },
      created_at: "2020-01-01T00:00:00.000Z",
      colour: 1,
    };
    expect((await patch(id, readOnly)).json).toEqual(empty.json);
  });

  test("renames; moves to another project of the organization, and the project filter follows", async () => {
    const { emptyNetwork, networkWithNodes, otherProject } = emulator().fixtures;
    expect((await patch(emptyNetwork, { name: "Renamed network" })).json.name).toBe("Renamed network");
    expect((await patch(emptyNetwork, {})).json.name).toBe("Renamed network");
    const before = (await listAll(emulator(), `project=${otherProject}`)).length;
    const moved = await patch(networkWithNodes, { project: otherProject });
    expect([moved.status, moved.json.project]).toEqual([200, otherProject]);
    expect((await listAll(emulator(), `project=${otherProject}`)).length).toBe(
      before + moved.json.nodes.length,
    );
  });

  test.each([
    [{ name: "" }, ["name"]],
    [{ name: "   " }, ["name"]],
    [{ name: "x".repeat(256) }, ["name"]],
    [{ name: null }, ["name"]],
    [{ name: 7 }, ["name"]],
    [{ project: "project-1" }, ["project"]],
    [{ project: "PR-999-999" }, ["project"]],
    [{ name: "", project: 3 }, ["name", "project"]],
  ])("%j: 400 validation_error with fields %j, nothing changed", async (body, fields) => {
    const a = await patch(emulator().fixtures.networkWithNodes, body);
    expect([a.status, a.json.error.code, Object.keys(a.json.error.fields).sort()]).toEqual([
      400,
      "validation_error",
      fields,
    ]);
    expect(emulator().admin.getNetwork(emulator().fixtures.networkWithNodes)!.name).toBe("Ethereum Mainnet");
  });

  test("a project of another organization: 400 on project", async () => {
    const a = await patch(emulator().fixtures.emptyNetwork, { project: emulator().fixtures.foreignProject });
    expect([a.status, a.json.error.fields.project[0]]).toEqual([
      400,
      expect.stringMatching(/project of your organization/),
    ]);
    expect(emulator().admin.getNetwork(emulator().fixtures.emptyNetwork)!.project).toBe(
      emulator().fixtures.otherProject,
    );
  });

  test("invalid JSON: 400 parse_error; a non-object: 400 validation_error; not JSON: 415", async () => {
    const path = `/v1/networks/${emulator().fixtures.emptyNetwork}/`;
    const raw = (rawBody: string, type = "application/json") =>
      call(emulator(), path, { method: "PATCH", rawBody, headers: { "Content-Type": type } });
    const broken = await raw('{"name": ');
    expect([broken.status, broken.json.error.code]).toEqual([400, "parse_error"]);
    const list = await raw('["x"]');
    expect([list.status, list.json.error.code, list.json.error.fields.non_field_errors.length]).toEqual([
      400,
      "validation_error",
      1,
    ]);
    const text = await raw('{"name":"x"}', "text/plain");
    expect([text.status, text.json.error.code]).toEqual([415, "unsupported_media_type"]);
  });

  test("missing, foreign or malformed network: 404 (the owner may); a consortium member that is not the owner: 404", async () => {
    const { foreignNetwork, otherOrganization, consortiumNetwork, organization } = emulator().fixtures;
    for (const id of ["NW-999-999-9", foreignNetwork, "NW-x", "nw-100-000-1"]) {
      const a = await patch(id, { name: "x" });
      expect([a.status, a.json.error.code]).toEqual([404, "not_found"]);
    }
    expect((await send("PATCH", foreignNetwork, { key: emulator().keys[otherOrganization] })).status).toBe(
      200,
    );
    const member = (await patch(consortiumNetwork)).json.nodes.find(
      (n: { organization: string }) => n.organization !== organization,
    ).organization;
    expect((await send("PATCH", consortiumNetwork, { key: emulator().keys[member] })).status).toBe(404);
  });

  test("DELETE a network without nodes: 204 without a body, then 404", async () => {
    const id = emulator().fixtures.emptyNetwork;
    const a = await send("DELETE", id);
    expect([a.status, a.text, a.headers.get("content-type")]).toEqual([204, "", null]);
    expect(emulator().admin.getNetwork(id)).toBeUndefined();
    expect((await send("DELETE", id)).status).toBe(404);
    expect((await patch(id)).status).toBe(404);
    expect((await send("DELETE", emulator().fixtures.secondEmptyNetwork)).status).toBe(204);
  });

  test("DELETE a network with nodes: 409 conflict until its nodes are gone; a missing or foreign one: 404, and it survives", async () => {
    const id = emulator().fixtures.networkWithNodes;
    const count = emulator().admin.getNetwork(id)!.nodes.length;
    const a = await send("DELETE", id);
    const message = `Network ${id} still has ${count} nodes; delete all nodes of the network first.`;
    expect([a.status, a.json]).toEqual([409, { error: { code: "conflict", message } }]);
    expect(emulator().admin.removeNodes(id)).toBe(count);
    expect((await send("DELETE", id)).status).toBe(204);
    expect((await send("DELETE", "NW-999-999-9")).status).toBe(404);
    expect((await send("DELETE", emulator().fixtures.foreignNetwork)).status).toBe(404);
    expect(emulator().admin.getNetwork(emulator().fixtures.foreignNetwork)).toBeDefined();
  });
});
