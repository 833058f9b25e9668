import { call, listAll, withEmulator } from "../helpers/emulator";

describe("PATCH and DELETE /v1/networks/{id}/", () => {
  const emulator = withEmulator({ seed: 9 }, { each: true });
  const path = (id: string) => `/v1/networks/${id}/`;

  describe("PATCH", () => {
    test("an empty body or no body reads the network unchanged, with its nodes as listed", async () => {
      const id = emulator().fixtures.networkWithNodes;
      const empty = await call(emulator(), path(id), { method: "PATCH", body: {} });
      expect(empty.status).toBe(200);
      expect(empty.headers.get("content-type")).toBe("application/json");
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
      const listed = await listAll(emulator(), `network=${id}`);
      expect(empty.json.nodes).toEqual(listed);
      const none = await call(emulator(), path(id), { method: "PATCH" });
      expect(none.status).toBe(200);
      expect(none.json).toEqual(empty.json);
      expect(emulator().admin.getNetwork(id)).toEqual(empty.json);
    });

    test("renames", async () => {
      const id = emulator().fixtures.emptyNetwork;
      const a = await call(emulator(), path(id), { method: "PATCH", body: { name: "Renamed network" } });
      expect(a.status).toBe(200);
      expect(a.json.name).toBe("Renamed network");
      expect((await call(emulator(), path(id), { method: "PATCH", body: {} })).json.name).toBe(
        "Renamed network",
      );
    });

    test("moves to another project of the organization; the project filter follows", async () => {
      const id = emulator().fixtures.networkWithNodes;
      const before = (await listAll(emulator(), `project=${emulator().fixtures.otherProject}`)).length;
      const a = await call(emulator(), path(id), {
        method: "PATCH",
        body: { project: emulator().fixtures.otherProject },
      });
      expect(a.status).toBe(200);
      expect(a.json.project).toBe(emulator().fixtures.otherProject);
      const after = await listAll(emulator(), `project=${emulator().fixtures.otherProject}`);
      expect(after.length).toBe(before + a.json.nodes.length);
    });

    test("read-only and unknown fields are accepted and ignored", async () => {
      const id = emulator().fixtures.networkWithNodes;
      const before = (await call(emulator(), path(id), { method: "PATCH" })).json;
      const a = await call(emulator(), path(id), {
        method: "PATCH",
        body: {
          protocol: "bitcoin",
          creator: { id: "UR-1-1-1" },
          created_at: "2020-01-01T00:00:00.000Z",
          colour: 1,
        },
      });
      expect(a.status).toBe(200);
      expect(a.json).toEqual(before);
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
      const id = emulator().fixtures.networkWithNodes;
      const a = await call(emulator(), path(id), { method: "PATCH", body });
      expect(a.status).toBe(400);
      expect(a.json.error.code).toBe("validation_error");
      expect(Object.keys(a.json.error.fields).sort()).toEqual(fields);
      expect(emulator().admin.getNetwork(id)!.name).toBe("Ethereum Mainnet");
    });

    test("a project of another organization: 400 on project", async () => {
      const a = await call(emulator(), path(emulator().fixtures.emptyNetwork), {
        method: "PATCH",
        body: { project: emulator().fixtures.foreignProject },
      });
      expect(a.status).toBe(400);
      expect(a.json.error.fields.project[0]).toMatch(/project of your organization/);
      expect(emulator().admin.getNetwork(emulator().fixtures.emptyNetwork)!.project).toBe(
        emulator().fixtures.otherProject,
      );
    });

    test("invalid JSON: 400 parse_error; a non-object: 400 validation_error; not JSON: 415", async () => {
      const id = emulator().fixtures.emptyNetwork;
      const headers = { "Content-Type": "application/json" };
      const broken = await call(emulator(), path(id), { method: "PATCH", rawBody: '{"name": ', headers });
      expect(broken.status).toBe(400);
      expect(broken.json.error.code).toBe("parse_error");
      const list = await call(emulator(), path(id), { method: "PATCH", rawBody: '["x"]', headers });
      expect(list.status).toBe(400);
      expect(list.json.error.code).toBe("validation_error");
      expect(list.json.error.fields.non_field_errors).toHaveLength(1);
      const text = await call(emulator(), path(id), {
        method: "PATCH",
        rawBody: '{"name":"x"}',
        headers: { "Content-Type": "text/plain" },
      });
      expect(text.status).toBe(415);
      expect(text.json.error.code).toBe("unsupported_media_type");
    });

    test("missing, foreign or malformed network: 404", async () => {
      for (const id of ["NW-999-999-9", emulator().fixtures.foreignNetwork, "NW-x", "nw-100-000-1"]) {
        const a = await call(emulator(), path(id), { method: "PATCH", body: { name: "x" } });
        expect(a.status).toBe(404);
        expect(a.json.error.code).toBe("not_found");
      }
      const other = emulator().keys[emulator().fixtures.otherOrganization];
      const own = await call(emulator(), path(emulator().fixtures.foreignNetwork), {
        method: "PATCH",
        key: other,
      });
      expect(own.status).toBe(200);
    });

    test("only the owner may update a consortium network; members get 404", async () => {
      const id = emulator().fixtures.consortiumNetwork;
      const owner = await call(emulator(), path(id), { method: "PATCH" });
      const member = owner.json.nodes.find(
        (n: { organization: string }) => n.organization !== emulator().fixtures.organization,
      ).organization;
      expect(
        (await call(emulator(), path(id), { method: "PATCH", key: emulator().keys[member] })).status,
      ).toBe(404);
    });
  });

  describe("DELETE", () => {
    test("a network without nodes: 204 without body, then 404", async () => {
      const id = emulator().fixtures.emptyNetwork;
      const a = await call(emulator(), path(id), { method: "DELETE" });
      expect(a.status).toBe(204);
      expect(a.text).toBe("");
      expect(a.headers.get("content-type")).toBeNull();
      expect(emulator().admin.getNetwork(id)).toBeUndefined();
      expect((await call(emulator(), path(id), { method: "DELETE" })).status).toBe(404);
      expect((await call(emulator(), path(id), { method: "PATCH" })).status).toBe(404);
      expect(
        (await call(emulator(), path(emulator().fixtures.secondEmptyNetwork), { method: "DELETE" })).status,
      ).toBe(204);
    });

    test("a network with nodes: 409 conflict, until its nodes are gone", async () => {
      const id = emulator().fixtures.networkWithNodes;
      const count = emulator().admin.getNetwork(id)!.nodes.length;
      const a = await call(emulator(), path(id), { method: "DELETE" });
      expect(a.status).toBe(409);
      expect(a.json).toEqual({
        error: {
          code: "conflict",
          message: `Network ${id} still has ${count} nodes; delete all nodes of the network first.`,
        },
      });
      expect(emulator().admin.removeNodes(id)).toBe(count);
      expect((await call(emulator(), path(id), { method: "DELETE" })).status).toBe(204);
    });

    test("missing or foreign network: 404, and the foreign one survives", async () => {
      expect((await call(emulator(), path("NW-999-999-9"), { method: "DELETE" })).status).toBe(404);
      const foreign = emulator().fixtures.foreignNetwork;
      expect((await call(emulator(), path(foreign), { method: "DELETE" })).status).toBe(404);
      expect(emulator().admin.getNetwork(foreign)).toBeDefined();
    });
  });

  describe("admin (out of band)", () => {
    test("renameNetwork, setNodeStatus, deleteNetwork and removeNodes show through the API", async () => {
      const { admin, fixtures } = emulator();
      expect(admin.renameNetwork(fixtures.networkWithNodes, "Renamed in the UI")).toBe(true);
      expect((await call(emulator(), path(fixtures.networkWithNodes), { method: "PATCH" })).json.name).toBe(
        "Renamed in the UI",
      );
      expect(admin.setNodeStatus(fixtures.beaconNode, "stopped")).toBe(true);
      expect((await call(emulator(), `/v1/nodes/${fixtures.beaconNode}/`)).json.status).toBe("stopped");
      expect(admin.getNode(fixtures.beaconNode)!.status).toBe("stopped");

      const total = (await call(emulator(), "/v1/nodes/")).json.count;
      const removed = admin.getNetwork(fixtures.networkWithNodes)!.nodes.length;
      expect(admin.deleteNetwork(fixtures.networkWithNodes)).toBe(true);
      expect(admin.getNetwork(fixtures.networkWithNodes)).toBeUndefined();
      expect((await call(emulator(), "/v1/nodes/")).json.count).toBe(total - removed);
      expect((await call(emulator(), `/v1/nodes/${fixtures.beaconNode}/`)).status).toBe(404);
      expect(admin.deleteNetwork(fixtures.networkWithNodes)).toBe(false);
      expect(admin.renameNetwork("NW-999-999-9", "x")).toBe(false);
      expect(admin.setNodeStatus("ND-999-999-999", "running")).toBe(false);
      expect(admin.removeNodes(fixtures.emptyNetwork)).toBe(0);
    });

    test("admin values are checked with the model", () => {
      expect(() =>
        emulator().admin.setNodeStatus(emulator().fixtures.beaconNode, "sleeping" as never),
      ).toThrow(RangeError);
      expect(() => emulator().admin.renameNetwork(emulator().fixtures.emptyNetwork, "")).toThrow(RangeError);
    });
  });
});
