/**
 * `verify`'s hints name arguments as the caller's language spells them: camelCase in TypeScript,
 * YAML and Go, snake_case in Python; the plugin tells a Python program by its `Pulumi.yaml`.
 */
import * as fs from "fs";
import * as path from "path";
import { InvalidInputError } from "../../src/api";
import { camelSpelling, checkVerify, snakeSpelling } from "../../src/functions/verify";
import { programSpelling, runtimeOf } from "../../src/plugin/handlers";
import { withTempDir } from "../helpers/env";
import { rejection } from "../helpers/client";

test("snake_case for Python, names as they are for the others", () => {
  const names = ["expectedChainId", "maxHeadAgeSeconds", "timeoutSeconds", "minVerified", "waitFor"];
  expect(names.map(snakeSpelling)).toEqual([
    "expected_chain_id",
    "max_head_age_seconds",
    "timeout_seconds",
    "min_verified",
    "wait_for",
  ]);
  expect(names.map(camelSpelling)).toEqual(names);
});

test("a refused verify names its fields in the host's spelling", async () => {
  const refusal = async (
    spell?: typeof snakeSpelling,
    verify: object = { minVerified: 0, timeoutSeconds: 0, maxHeadAge: 5 },
  ) => {
    const error = await rejection(() => checkVerify("get_nodes", verify, { spell }));
    expect(error).toBeInstanceOf(InvalidInputError);
    return (error as Error).message;
  };
  const python = await refusal(snakeSpelling);
  for (const field of ["verify.max_head_age", "max_head_age_seconds?", "min_verified?"]) {
    expect(python).toContain(field);
  }
  expect(python).not.toMatch(/maxHeadAge|minVerified/);
  const typescript = await refusal();
  expect(typescript).toContain("verify.maxHeadAge");
  expect(typescript).toContain("minVerified?");
  // Checked in one pass: once the unknown field is gone, both bad values are named.
  const both = await refusal(snakeSpelling, { minVerified: 0, timeoutSeconds: 0 });
  expect(both).toContain("verify.min_verified");
  expect(both).toContain("verify.timeout_seconds");
});

describe("the runtime a Pulumi.yaml names", () => {
  test.each([
    ["name: app\nruntime: python\n", "python"],
    ["name: app\nruntime: 'python' # the SDK\n", "python"],
    ['runtime: "nodejs"\n', "nodejs"],
    ["name: app\nruntime:\n  name: python\n  options:\n    toolchain: uv\n", "python"],
    ["runtime:\n  options:\n    virtualenv: venv\n  name: python\nmain: src/\n", "python"],
    ["runtime: { name: python, options: { toolchain: pip } }\n", "python"],
    ["runtime: {options: {x: 1}, name: yaml}\n", "yaml"],
    ["name: app\r\nruntime: go\r\n", "go"],
    ["name: app\ndescription: runtime: python\n", undefined],
    ["name: app\n  runtime: python\n", undefined],
    ["runtime:\n  options: {}\nname: python\n", undefined],
  ])("%j → %s", (text, runtime) => {
    expect(runtimeOf(text)).toBe(runtime);
  });
});

describe("the plugin's spelling, from the program's folder", () => {
  const dir = withTempDir("verify-spelling-", { each: true });
  const spellingIn = (folder: string) => programSpelling(folder)("maxHeadAgeSeconds");

  test("a Python project: snake_case, also from its main folder below", () => {
    fs.writeFileSync(path.join(dir(), "Pulumi.yaml"), "name: p\nruntime:\n  name: python\nmain: src/\n");
    fs.mkdirSync(path.join(dir(), "src"));
    expect(spellingIn(dir())).toBe("max_head_age_seconds");
    expect(spellingIn(path.join(dir(), "src"))).toBe("max_head_age_seconds");
  });

  test.each(["yaml", "go", "nodejs", "dotnet"])("a %s project: camelCase", (runtime) => {
    fs.writeFileSync(path.join(dir(), "Pulumi.yml"), `name: p\nruntime: ${runtime}\n`);
    expect(spellingIn(dir())).toBe("maxHeadAgeSeconds");
  });

  test("the nearest project counts: a YAML project inside a Python one is YAML", () => {
    fs.writeFileSync(path.join(dir(), "Pulumi.yaml"), "name: p\nruntime: python\n");
    fs.mkdirSync(path.join(dir(), "inner"));
    fs.writeFileSync(path.join(dir(), "inner", "Pulumi.yaml"), "name: q\nruntime: yaml\n");
    expect(spellingIn(path.join(dir(), "inner"))).toBe("maxHeadAgeSeconds");
  });
});
