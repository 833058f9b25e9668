/**
 * The layer rule (`.dependency-cruiser.js`, run by `npm run lint`) passes on the real tree and
 * fails, naming the rule, on deliberate upward imports. The probes are written into a temporary
 * copy of src/ outside the repository, so none can be left behind in the work tree or committed.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const ROOT = path.resolve(__dirname, "..", "..");

interface Run {
  code: number | null;
  output: string;
}

/** The dependency-cruiser arguments of the `lint` script, so the test runs what CI runs. */
function lintArgs(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const match = /(?:^|&&\s*)depcruise\s+([^&|;]+)/.exec(pkg.scripts.lint);
  if (!match) throw new Error(`the lint script does not run depcruise: ${pkg.scripts.lint}`);
  return match[1].trim().split(/\s+/);
}

/** The depcruise executable of the installed dependency-cruiser. */
function depcruiseBin(): string {
  // the package's "exports" do not include package.json, so it is read from its folder
  const manifest = path.join(ROOT, "node_modules", "dependency-cruiser", "package.json");
  const { bin } = JSON.parse(fs.readFileSync(manifest, "utf8")) as { bin: Record<string, string> };
  return path.join(path.dirname(manifest), bin.depcruise);
}

function depcruise(cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [depcruiseBin(), ...lintArgs(), "--no-progress"], {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** Each probe: a file (relative to the copy's root), its content, and the violation it must raise. */
const PROBES: { file: string; content: string; expected: RegExp }[] = [
  {
    // a type-only import upward is still upward
    file: "src/model/__layer_probe__.ts",
    content: 'import type { NodeServiceClient } from "../api";\nexport type Probe = NodeServiceClient;\n',
    expected: /error layer-model: src\/model\/__layer_probe__\.ts → src\/api\//,
  },
  {
    file: "src/emulator/__layer_probe__.ts",
    content: 'import { NodeServiceClient } from "../api";\nexport const probe = NodeServiceClient;\n',
    expected: /error layer-emulator: src\/emulator\/__layer_probe__\.ts → src\/api\//,
  },
  {
    // one folder deeper, through a re-export
    file: "src/emulator/http/__layer_probe__.ts",
    content: 'export * from "../../settings";\n',
    expected: /error layer-emulator: src\/emulator\/http\/__layer_probe__\.ts → src\/settings/,
  },
  {
    file: "src/api/__layer_probe__.ts",
    content: 'import type { Output } from "@pulumi/pulumi";\nexport type Probe = Output<string>;\n',
    expected:
      /error no-pulumi-below-settings: src\/api\/__layer_probe__\.ts → \S*node_modules\/@pulumi\/pulumi\//,
  },
  {
    file: "src/resources/__layer_probe__.ts",
    content: 'export const probe: unknown = require("../functions");\n',
    expected: /error layer-resources: src\/resources\/__layer_probe__\.ts → src\/functions\//,
  },
  {
    // the provider core serves both hosts: it never reaches up into one of them
    file: "src/provider/__layer_probe__.ts",
    content: 'import type { Network } from "../resources";\nexport type Probe = Network;\n',
    expected: /error layer-provider: src\/provider\/__layer_probe__\.ts → src\/resources\//,
  },
  {
    file: "src/provider/__layer_probe_functions__.ts",
    content: 'export { getNode } from "../functions";\n',
    expected: /error layer-provider: src\/provider\/__layer_probe_functions__\.ts → src\/functions\//,
  },
  {
    // the plugin serves the registry, never the other host's shell
    file: "src/plugin/__layer_probe__.ts",
    content: 'export { providerFor } from "../resources/shell";\n',
    expected: /error layer-plugin: src\/plugin\/__layer_probe__\.ts → src\/resources\/shell\.ts/,
  },
  {
    // the package's own name, resolved through tsconfig's paths to the entry point
    file: "src/functions/__layer_probe__.ts",
    content: 'import { Network } from "pulumi-blockchain-nodes";\nexport const probe = Network;\n',
    expected: /error entry-points-on-top: src\/functions\/__layer_probe__\.ts → src\/index\.ts/,
  },
  {
    file: "src/model/__layer_probe_io__.ts",
    content: 'import { readFileSync } from "fs";\nexport const probe = readFileSync;\n',
    expected: /error model-no-io: src\/model\/__layer_probe_io__\.ts → fs/,
  },
  {
    file: "src/api/__layer_probe_test__.ts",
    content: 'export * from "../../test/__layer_probe_helper__";\n',
    expected: /error src-stays-in-src: src\/api\/__layer_probe_test__\.ts → test\/__layer_probe_helper__\.ts/,
  },
  {
    // a new folder in src/ that no layer names
    file: "src/__layer_probe__/probe.ts",
    content: 'export * from "../model";\n',
    expected: /error file-in-a-layer: src\/__layer_probe__\/probe\.ts → src\/model\//,
  },
];

describe("layer rule (dependency-cruiser in npm run lint)", () => {
  let copy = "";

  beforeAll(() => {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), "layer-probe-"));
    fs.cpSync(path.join(ROOT, "src"), path.join(copy, "src"), { recursive: true });
    for (const file of ["package.json", "tsconfig.json", ".dependency-cruiser.js"]) {
      fs.copyFileSync(path.join(ROOT, file), path.join(copy, file));
    }
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"), "dir");
    fs.mkdirSync(path.join(copy, "test"));
    fs.writeFileSync(path.join(copy, "test", "__layer_probe_helper__.ts"), "export const helper = 1;\n");
    for (const probe of PROBES) {
      fs.mkdirSync(path.dirname(path.join(copy, probe.file)), { recursive: true });
      fs.writeFileSync(path.join(copy, probe.file), probe.content);
    }
  });

  afterAll(() => {
    if (copy) fs.rmSync(copy, { recursive: true, force: true });
  });

  it("is part of the lint script", () => {
    expect(lintArgs()).toEqual(expect.arrayContaining(["src", "--config", ".dependency-cruiser.js"]));
  });

  it("passes on the real tree and fails on every deliberate upward import, naming the rule", async () => {
    const [real, probed] = await Promise.all([depcruise(ROOT), depcruise(copy)]);

    expect(real.output).toContain("no dependency violations found");
    expect(real.code).toBe(0);

    expect(probed.code).not.toBe(0);
    for (const probe of PROBES) expect(probed.output).toMatch(probe.expected);
    // no probe's violation comes from anything but the probes
    const errors = probed.output.split("\n").filter((line) => /^\s*error /.test(line));
    expect(errors.length).toBeGreaterThanOrEqual(PROBES.length);
    for (const line of errors) expect(line).toMatch(/__layer_probe/);
  });
});
