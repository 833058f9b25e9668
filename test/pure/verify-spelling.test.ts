/**
 * `verify`'s hints name arguments as the caller's language spells them: camelCase in TypeScript,
 * YAML and Go, snake_case in Python; the plugin tells a Python program by its `Pulumi.yaml`.
 */
import * as fs from "fs";
import * as path from "path";
import { InvalidInputError } from "../../src/api";
import { checkVerify, snakeSpelling } from "../../src/functions/verify";
import { programSpelling, runtimeOf } from "../../src/plugin/handlers";
import { withTempDir } from "../helpers/env";
import { rejection } from "../helpers/client";

test("a refused verify names every field in the host's spelling: snake_case for Python, as written for the others", async () => {
  const refusal = async (spell?: typeof snakeSpelling) => {
    const verify = { minVerified: 0, timeoutSeconds: 0, maxHeadAge: 5 };
    const error = await rejection(() => checkVerify("get_nodes", verify, { spell }));
    expect(error).toBeInstanceOf(InvalidInputError);
    return (error as Error).message;
  };
  // Every bad value is named in one pass, and the unknown field's message lists the known ones.
  const named = ["verify.minVerified:", "verify.timeoutSeconds:", "verify.maxHeadAge:", "maxHeadAgeSeconds?"];
  const known = [...named, "timeoutSeconds?", "expectedChainId?", "minVerified?"];
  const [python, typescript] = [await refusal(snakeSpelling), await refusal()];
  for (const field of known) expect(typescript).toContain(field);
  const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  for (const field of known) expect(python).toContain(snake(field));
  expect(python).not.toMatch(/[a-z][A-Z]/);
  expect(snakeSpelling("waitFor")).toBe("wait_for");
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
