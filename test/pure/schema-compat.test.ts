/** `npm run schema:compat` on synthetic schemas: each breaking kind found, and the rule that lets one ship. */
import * as fs from "fs";
import * as path from "path";
import {
  breakingNotes,
  compareSchemas,
  decide,
  isMajorBump,
  main,
  namedIn,
  PackageSchema,
  releasedSchemas,
  typeOf,
} from "../../scripts/schema/compat";
import { withTempDir } from "../helpers/env";

const root = path.resolve(__dirname, "..", "..");

/** A small package with one of everything the check compares. */
function base(): PackageSchema {
  return {
    version: "0.1.0",
    config: { variables: { apiUrl: { type: "string" }, retries: { type: "integer" } } },
    provider: { inputProperties: { apiUrl: { type: "string" }, retries: { type: "integer" } } },
    types: {
      "x:index:Item": {
        type: "object",
        properties: { id: { type: "string" }, size: { type: "number" } },
        required: ["id"],
      },
      "x:index:Wait": {
        type: "object",
        properties: { status: { type: "string" }, seconds: { type: "number" } },
        required: ["status"],
      },
      "x:index:Color": {
        type: "string",
        enum: [
          { name: "Red", value: "red" },
          { name: "Blue", value: "blue" },
        ],
      },
    },
    resources: {
      "x:index:Thing": {
        properties: {
          name: { type: "string" },
          items: { type: "array", items: { $ref: "#/types/x:index:Item" } },
          tags: { type: "object", additionalProperties: { type: "string" } },
        },
        required: ["name", "items"],
        inputProperties: { name: { type: "string" }, color: { $ref: "#/types/x:index:Color" } },
        requiredInputs: [],
      },
    },
    functions: {
      "x:index:getThing": {
        inputs: {
          properties: { id: { type: "string" }, waitFor: { $ref: "#/types/x:index:Wait" } },
          required: ["id"],
        },
        outputs: { properties: { name: { type: "string" }, count: { type: "integer" } }, required: ["name"] },
      },
    },
  };
}

type Schema = Required<PackageSchema>;
type Edit = (s: Schema) => void;

function edited(edit: Edit): PackageSchema {
  const s = base() as Schema;
  edit(s);
  return s;
}

const thing = (s: Schema) => s.resources["x:index:Thing"];
const getThing = (s: Schema) => s.functions["x:index:getThing"];
const type = (s: Schema, name: string) => s.types[`x:index:${name}`];
/** The inputs and outputs of the resource and the function, the config variables, a type's properties. */
const ins = (s: Schema) => thing(s).inputProperties!;
const outs = (s: Schema) => thing(s).properties!;
const args = (s: Schema) => getThing(s).inputs!.properties!;
const results = (s: Schema) => getThing(s).outputs!.properties!;
const vars = (s: Schema) => s.config.variables!;
const item = (s: Schema) => type(s, "Item").properties!;
const t = (name: string) => ({ type: name });
const kinds = (after: PackageSchema) => compareSchemas(base(), after).map((b) => `${b.kind}: ${b.name}`);

/** Per breaking kind: what the edit does, the edit, and the name the break gives. */
const BREAKS: Record<string, Array<[string, Edit, string]>> = {
  removed: [
    ["a resource", (s) => delete s.resources["x:index:Thing"], "Thing"],
    ["a function", (s) => delete s.functions["x:index:getThing"], "getThing"],
    ["a type", (s) => delete s.types["x:index:Item"], "Item"],
    ["a resource input", (s) => delete ins(s).color, "color"],
    ["a resource output", (s) => delete outs(s).tags, "tags"],
    ["a function argument", (s) => delete args(s).waitFor, "waitFor"],
    ["a function result", (s) => delete results(s).count, "count"],
    ["a config variable", (s) => delete vars(s).retries, "retries"],
    ["a provider input", (s) => delete s.provider.inputProperties!.apiUrl, "apiUrl"],
    ["a property of a type", (s) => delete item(s).size, "size"],
    ["an enum value", (s) => type(s, "Color").enum!.pop(), "Blue"],
  ],
  "changed type": [
    ["a resource input", (s) => (ins(s).name = t("integer")), "name"],
    ["array items", (s) => (outs(s).items = { type: "array", items: t("string") }), "items"],
    ["a map", (s) => (outs(s).tags = { type: "object", additionalProperties: t("number") }), "tags"],
    ["another $ref", (s) => (args(s).waitFor = { $ref: "#/types/x:index:Item" }), "waitFor"],
    ["a function result", (s) => (results(s).count = t("number")), "count"],
    ["a config variable", (s) => (vars(s).retries = t("string")), "retries"],
    ["a property of a type", (s) => (item(s).size = t("string")), "size"],
    ["a resource output no longer always set", (s) => (thing(s).required = ["name"]), "items"],
    ["a function result no longer always set", (s) => (getThing(s).outputs!.required = []), "name"],
    ["an output type's property no longer always set", (s) => (type(s, "Item").required = []), "id"],
  ],
  "new required input": [
    ["a resource input", (s) => (thing(s).requiredInputs = ["name"]), "name"],
    ["a function argument", (s) => getThing(s).inputs!.required!.push("waitFor"), "waitFor"],
    ["a provider input", (s) => (s.provider.requiredInputs = ["apiUrl"]), "apiUrl"],
    ["a config variable", (s) => (s.config.defaults = ["apiUrl"]), "apiUrl"],
    ["a property of a type used by inputs", (s) => type(s, "Wait").required!.push("seconds"), "seconds"],
    [
      "an input that did not exist",
      (s) => {
        ins(s).project = t("string");
        thing(s).requiredInputs = ["project"];
      },
      "project",
    ],
  ],
};

describe("compareSchemas: each breaking kind", () => {
  test.each(
    Object.entries(BREAKS).flatMap(([kind, rows]) =>
      rows.map(([what, edit, name]) => [`${kind}: ${what}`, edit, `${kind}: ${name}`] as const),
    ),
  )("%s breaks", (_what, edit, expected) => {
    expect(kinds(edited(edit))).toEqual([expected]);
  });

  test("every break of one edit is reported, one line each, naming the token", () => {
    const breaks = compareSchemas(
      base(),
      edited((s) => {
        delete thing(s).inputProperties!.color;
        getThing(s).outputs!.properties!.count = { type: "string" };
      }),
    );
    expect(breaks.map((b) => b.message)).toEqual([
      "removed: input `color` of resource x:index:Thing",
      "changed type: output `count` of function x:index:getThing: integer → string",
    ]);
  });

  test("additions are not breaking", () => {
    const after = edited((s) => {
      s.resources["x:index:Other"] = {
        properties: { id: { type: "string" } },
        required: ["id"],
        requiredInputs: ["id"],
      };
      s.functions["x:index:getOther"] = {
        inputs: { properties: {}, required: [] },
        outputs: { properties: {} },
      };
      s.types["x:index:New"] = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
      thing(s).inputProperties!.project = { type: "string" };
      thing(s).properties!.project = { type: "string" };
      thing(s).required!.push("project"); // an output newly always set
      getThing(s).inputs!.properties!.limit = { type: "integer" };
      getThing(s).outputs!.properties!.extra = { type: "string" };
      getThing(s).inputs!.required = []; // an argument no longer required
      s.config.variables!.deadlineMs = { type: "number" };
      s.provider.inputProperties!.deadlineMs = { type: "number" };
      s.types["x:index:Item"].properties!.extra = { type: "string" };
      s.types["x:index:Color"].enum!.push({ name: "Green", value: "green" });
      s.types["x:index:Wait"].required = []; // an input type's property no longer required
    });
    expect(compareSchemas(base(), after)).toEqual([]);
  });

  test("the same schema and a reordered one are compatible; docs and secrecy are not compared", () => {
    expect(compareSchemas(base(), base())).toEqual([]);
    const after = edited((s) => {
      thing(s).inputProperties = {
        color: thing(s).inputProperties!.color,
        name: { type: "string", description: "new doc" } as never,
      };
    });
    expect(compareSchemas(base(), after)).toEqual([]);
  });

  test("typeOf spells nested types", () => {
    expect(typeOf({ type: "array", items: { $ref: "#/types/x:index:Item" } })).toBe(
      "array<ref(#/types/x:index:Item)>",
    );
    expect(
      typeOf({ type: "object", additionalProperties: { type: "array", items: { type: "string" } } }),
    ).toBe("map<array<string>>");
    expect(typeOf({ $ref: "pulumi.json#/Any" })).toBe("ref(pulumi.json#/Any)");
  });
});

describe("the rule: a major bump (a minor one before 1.0) and a CHANGELOG breaking heading naming each break", () => {
  test.each([
    ["0.1.0", "0.2.0", true],
    ["0.1.3", "0.2.0", true],
    ["0.1.0", "1.0.0", true],
    ["1.4.2", "2.0.0", true],
    ["0.1.0", "0.1.1", false],
    ["0.1.0", "0.1.0", false],
    ["1.4.2", "1.5.0", false],
    ["1.4.2", "1.4.3", false],
    ["2.0.0", "1.9.0", false],
  ])("%s → %s may break: %s", (from, to, allowed) => {
    expect(isMajorBump(from, to)).toBe(allowed);
  });

  const changelog = [
    "# Changelog",
    "## [Unreleased]",
    "### Changed (breaking)",
    "- `unrelated` went away.",
    "## [0.2.0] - 2025-01-31",
    "### Added",
    "- `color` on `Thing`.",
    "### Changed (breaking)",
    "- `Thing.name` is now an integer; pass a number.",
    "### Fixed",
    "- `tags` fixed.",
    "## 0.1.0",
    "### Breaking changes",
    "- `count` was removed.",
  ].join("\n");

  test("breakingNotes reads the breaking heading(s) of the version's section only", () => {
    const notes = breakingNotes(changelog, "0.2.0")!;
    expect(notes).toContain("`Thing.name`");
    expect(notes).not.toContain("`color`"); // under ### Added
    expect(notes).not.toContain("`tags`"); // under ### Fixed
    expect(notes).not.toContain("`unrelated`"); // another section
    expect(breakingNotes(changelog, "0.1.0")).toContain("`count`");
    expect(breakingNotes(changelog, "0.3.0")).toBeUndefined();
    expect(breakingNotes("## 0.2.0\n\n### Added\n\n- `name`\n", "0.2.0")).toBeUndefined();
    expect(breakingNotes("## v0.2.0\n### Breaking\n- `x`\n", "0.2.0")).toContain("`x`");
    // 0.2.0 is not 0.2.01 or 10.2.0
    expect(breakingNotes("## 0.2.01\n### Breaking\n- `x`\n", "0.2.0")).toBeUndefined();
  });

  test("namedIn wants the name in backticks, alone or in a longer span, as a whole word", () => {
    expect(namedIn("- `name` is gone", "name")).toBe(true);
    expect(namedIn("- `Thing.name` is gone", "name")).toBe(true);
    expect(namedIn("- name is gone", "name")).toBe(false);
    expect(namedIn("- `networkName` is gone", "name")).toBe(false);
  });

  const retyped = edited((s) => (thing(s).inputProperties!.name = { type: "integer" }));
  const removedColor = edited((s) => delete thing(s).inputProperties!.color);
  const verdict = (current: PackageSchema, version: string, log = changelog, releasedVersion = "0.1.0") =>
    decide({ released: base(), releasedVersion, current, version, changelog: log });

  test("no break passes whatever the version and the CHANGELOG", () => {
    for (const [version, log] of [
      ["0.1.0", ""],
      ["0.1.1", ""],
      ["0.2.0", changelog],
    ])
      expect(verdict(base(), version, log).ok).toBe(true);
  });

  test("a break without a major bump fails, naming the break and the rule", () => {
    const v = verdict(retyped, "0.1.1");
    expect(v.ok).toBe(false);
    const text = v.lines.join("\n");
    for (const token of ["changed type: ", "`name`", "x:index:Thing", "string → integer", "package.json"])
      expect(text).toContain(token);
    expect(text).toMatch(/0\.1\.0.*0\.1\.1/);
    expect(verdict(retyped, "1.5.0", "## 1.5.0\n### Breaking\n- `name`\n", "1.4.0").ok).toBe(false);
  });

  test("a break with a major bump and a breaking heading naming it passes", () => {
    const v = verdict(retyped, "0.2.0");
    expect(v).toMatchObject({ ok: true });
    expect(v.lines[0]).toMatch(/allowed: 0\.2\.0 is a major bump over 0\.1\.0/);
  });

  test("a major bump without the CHANGELOG section, or without a breaking heading in it, fails", () => {
    expect(verdict(retyped, "0.2.0", "## 0.3.0\n### Changed (breaking)\n- `name`\n").ok).toBe(false);
    const v = verdict(retyped, "0.2.0", "## 0.2.0\n### Changed\n- `name` is an integer\n");
    expect(v.ok).toBe(false);
    expect(v.lines.join("\n")).toMatch(/CHANGELOG\.md .*"## 0\.2\.0"/);
  });

  test("a major bump whose breaking heading does not name the break fails, naming what is missing", () => {
    const v = verdict(removedColor, "0.2.0");
    expect(v.ok).toBe(false);
    expect(v.lines.join("\n")).toMatch(/does not name \(in backticks\) `color`/);
  });
});

describe("npm run schema:compat on files", () => {
  const tempDir = withTempDir("schema-compat-", { each: true });
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
    fs.mkdirSync(path.join(dir, "released"));
    fs.writeFileSync(path.join(dir, "released", "0.1.0.json"), JSON.stringify(base()));
    fs.writeFileSync(path.join(dir, "released", "0.0.9.json"), JSON.stringify({}));
    fs.writeFileSync(path.join(dir, "released", "notes.txt"), "not a schema");
  });

  const run = (schema: PackageSchema, version: string, changelog = "") => {
    const files = {
      schema: "schema.json",
      released: "released",
      package: "package.json",
      changelog: "CHANGELOG.md",
    };
    fs.writeFileSync(path.join(dir, files.schema), JSON.stringify(schema));
    fs.writeFileSync(path.join(dir, files.package), JSON.stringify({ version }));
    fs.writeFileSync(path.join(dir, files.changelog), changelog);
    const printed: string[] = [];
    const args = Object.entries(files).flatMap(([flag, file]) => [`--${flag}`, path.join(dir, file)]);
    const print = (line: string) => void printed.push(line);
    return { code: main(args, print, print), printed: printed.join("\n") };
  };

  test("the baseline is the newest released schema not above the version", () => {
    expect(releasedSchemas(path.join(dir, "released")).map((r) => r.version)).toEqual(["0.1.0", "0.0.9"]);
    expect(run(base(), "0.1.0")).toMatchObject({ code: 0 });
    expect(run(base(), "0.1.0").printed).toMatch(/\b0\.1\.0: compatible/);
    const broken = edited((s) => delete s.resources["x:index:Thing"]);
    expect(run(broken, "0.1.1")).toMatchObject({ code: 1 });
    expect(run(broken, "0.1.1").printed).toMatch(/removed: resource x:index:Thing/);
    expect(run(broken, "0.2.0", "## 0.2.0\n\n### Changed (breaking)\n\n- `Thing` is gone.\n")).toMatchObject({
      code: 0,
    });
  });

  test("a version below every released schema, or no released schema, is an input error (2)", () => {
    expect(run(base(), "0.0.1")).toMatchObject({ code: 2 });
    expect(run(base(), "0.0.1").printed).toMatch(/below every released schema/);
    fs.rmSync(path.join(dir, "released"), { recursive: true });
    expect(run(base(), "0.1.0")).toMatchObject({ code: 2 });
  });
});

describe("this repository", () => {
  test("schema/released/0.1.0.json is the schema of release 0.1.0", () => {
    const released = releasedSchemas(path.join(root, "schema", "released"));
    const { file } = released.find((r) => r.version === "0.1.0")!;
    const schema: PackageSchema = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(schema.version).toBe("0.1.0");
    expect(Object.keys(schema.resources ?? {})).toEqual([
      "blockchain:index:Network",
      "blockchain:index:FaucetDrip",
    ]);
  });
});
