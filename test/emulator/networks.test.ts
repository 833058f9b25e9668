import { call, listAll, withEmulator } from "../helpers/emulator";

describe("PATCH and DELETE /v1/networks/{id}/", () => {
  const emulator = withEmulator({ seed: 9 }, { each: true });
  const send = (method: string, id: string, options: { body?: unknown; key?: string } = {}) =>
    call(emulator(), `/v1/networks/${id}/`, { method, ...options });
  const patch = (id: string, body?: unknown) => send("PATCH", id, { body });
  const stored = (id: string) => emulator().admin.getNetwork(id);

  test("an empty body or no body reads the network unchanged, with its nodes as listed; read-only and unknown fields are ignored", async () => {
    const { networkWithNodes: id, project, organization } = emulator().fixtures;
    const empty = await patch(id, {});
    expect([empty.status, empty.headers.get("content-type")]).toEqual([200, "application/json"]);
    const shown = { id, name: "Ethereum Mainnet", project, protocol: "ethereum", details: {}, status: "ok" };
    expect(empty.json).toMatchObject(shown);
    expect(empty.json.configuration).toEqual({ network: "ethereum-mainnet" });
    expect(empty.json.creator.organization.id).toBe(organization);
    expect(empty.json.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(empty.json.nodes).toEqual(await listAll(emulator(), `network=${id}`));
    const readOnly = {
      protocol: "bitcoin",
      creator: { id: "UR-1-1-1" },
      created_at: "2020-01-01T00:00:00.000Z",
      colour: 1,
    };
    for (const body of [undefined, readOnly]) expect((await patch(id, body)).json).toEqual(empty.json);
    expect(stored(id)).toEqual(empty.json);
  });

  test("renames; moves to another project of the organization, and the project filter follows", async () => {
    const { emptyNetwork, networkWithNodes, otherProject } = emulator().fixtures;
    expect((await patch(emptyNetwork, { name: "Renamed network" })).json.name).toBe("Renamed network");
    expect((await patch(emptyNetwork, {})).json.name).toBe("Renamed network");
    const listed = async () => (await listAll(emulator(), `project=${otherProject}`)).length;
    const before = await listed();
    const moved = await patch(networkWithNodes, { project: otherProject });
    expect([moved.status, moved.json.project]).toEqual([200, otherProject]);
    expect(await listed()).toBe(before + moved.json.nodes.length);
  });

  test.each([
    [{ name: "" }, ["name"]],
    [{ name: "   " }, ["name"]],
    [{ name: "x".repeat(256) }, ["name"]],
    [{ name: null }, ["name"]],
    [{ name: 7 }, ["name"]],
    [{ project: "project-1" }, ["project"]],
    [{ project: "PR-999-999" }, ["project"]],
    [{ project: "foreign" }, ["project"]],
    [{ name: "", project: 3 }, ["name", "project"]],
  ])("%j: 400 validation_error with fields %j, nothing changed", async (body, fields) => {
    const { networkWithNodes: id, foreignProject, project } = emulator().fixtures;
    const foreign = (body as { project?: unknown }).project === "foreign";
    const a = await patch(id, foreign ? { project: foreignProject } : body);
    expect([a.status, a.json.error.code]).toEqual([400, "validation_error"]);
    expect(Object.keys(a.json.error.fields).sort()).toEqual(fields);
    expect(stored(id)).toMatchObject({ name: "Ethereum Mainnet", project });
  });

  test("invalid JSON: 400 parse_error; a non-object: 400 validation_error on non_field_errors; not JSON: 415", async () => {
    const path = `/v1/networks/${emulator().fixtures.emptyNetwork}/`;
    const raw = (rawBody: string, type = "application/json") =>
      call(emulator(), path, { method: "PATCH", rawBody, headers: { "Content-Type": type } }).then((a) => [
        a.status,
        a.json.error.code,
        Object.keys(a.json.error.fields ?? {}),
      ]);
    expect(await raw('{"name": ')).toEqual([400, "parse_error", []]);
    expect(await raw('["x"]')).toEqual([400, "validation_error", ["non_field_errors"]]);
    expect(await raw('{"name":"x"}', "text/plain")).toEqual([415, "unsupported_media_type", []]);
  });

  test("missing, foreign or malformed network: 404 (the owner may); a consortium member that is not the owner: 404", async () => {
    const { foreignNetwork, otherOrganization, consortiumNetwork, organization } = emulator().fixtures;
    for (const id of ["NW-999-999-9", foreignNetwork, "NW-x", "nw-100-000-1"]) {
      const a = await patch(id, { name: "x" });
      expect([a.status, a.json.error.code]).toEqual([404, "not_found"]);
    }
    const owner = emulator().keys[otherOrganization];
    expect((await send("PATCH", foreignNetwork, { key: owner })).status).toBe(200);
    const nodes = (await patch(consortiumNetwork)).json.nodes as Array<{ organization: string }>;
    const member = nodes.find((n) => n.organization !== organization)!.organization;
    expect((await send("PATCH", consortiumNetwork, { key: emulator().keys[member] })).status).toBe(404);
  });

  test("DELETE: 204 without a body for a network without nodes, then 404; 409 conflict while it has nodes; a missing or foreign one: 404, and it survives", async () => {
    const { emptyNetwork, secondEmptyNetwork, networkWithNodes, foreignNetwork } = emulator().fixtures;
    const a = await send("DELETE", emptyNetwork);
    expect([a.status, a.text, a.headers.get("content-type")]).toEqual([204, "", null]);
    expect(stored(emptyNetwork)).toBeUndefined();
    const status = async (method: string, id: string) => (await send(method, id)).status;
    expect([await status("DELETE", emptyNetwork), await status("PATCH", emptyNetwork)]).toEqual([404, 404]);
    expect(await status("DELETE", secondEmptyNetwork)).toBe(204);
    const count = stored(networkWithNodes)!.nodes.length;
    const refused = await send("DELETE", networkWithNodes);
    expect([refused.status, refused.json.error.code]).toEqual([409, "conflict"]);
    expect(refused.json.error.message).toContain(`${count} nodes`);
    expect(emulator().admin.removeNodes(networkWithNodes)).toBe(count);
    expect(await status("DELETE", networkWithNodes)).toBe(204);
    for (const id of ["NW-999-999-9", foreignNetwork]) expect(await status("DELETE", id)).toBe(404);
    expect(stored(foreignNetwork)).toBeDefined();
  });
});
