/**
 * The test folders are the tiers: jest has one project per tier (jest.config.js), each with the
 * folder of its name as its only root, so a test file anywhere else would never run.
 */
import * as fs from "fs";
import * as path from "path";

const ROOT = path.resolve(__dirname, "..", "..");
const TIERS = ["pure", "client", "emulator", "providers", "contract", "program", "e2e"];

interface Project {
  displayName: string;
  roots: string[];
}

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith(".test.ts") ? [path.relative(ROOT, full)] : [];
  });
}

describe("one jest project per tier", () => {
  const projects: Project[] = require(path.join(ROOT, "jest.config.js")).projects;

  it("the projects are the README's tiers, cheapest first, each rooted in its own folder", () => {
    expect(projects.map((p) => p.displayName)).toEqual(TIERS);
    for (const p of projects) expect(p.roots).toEqual([`<rootDir>/test/${p.displayName}`]);
  });

  it("every test file is in a tier's folder; test/helpers/ and test/fixtures/ hold none", () => {
    const files = testFiles(path.join(ROOT, "test"));
    expect(files.length).toBeGreaterThan(0);
    const outside = files.filter((f) => !TIERS.includes(f.split(path.sep)[1]));
    expect(outside).toEqual([]);
    for (const tier of TIERS) expect(files.some((f) => f.split(path.sep)[1] === tier)).toBe(true);
  });

  it("the test folders are the tiers, test/helpers/ and test/fixtures/ (recorded data)", () => {
    const folders = fs
      .readdirSync(path.join(ROOT, "test"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(folders).toEqual([...TIERS, "fixtures", "helpers"].sort());
  });
});
