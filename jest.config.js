/**
 * One jest project per test tier, cheapest first; each tier is the folder of the same name under
 * test/. Run one with `npm test -- --selectProjects <tier>` (or `npx jest --selectProjects <tier>`).
 * scripts/summarize-jest.js reads the projects to report the time of each tier.
 */
const TIERS = ["pure", "client", "emulator", "providers", "contract", "program", "e2e"];

/** @type {import('jest').Config["projects"][number]} */
const shared = {
  preset: "ts-jest",
  testEnvironment: "node",
  testMatch: ["**/*.test.ts"],
  moduleNameMapper: {
    "^pulumi-blockchain-nodes$": "<rootDir>/src/index.ts",
    "^pulumi-blockchain-nodes/emulator$": "<rootDir>/src/emulator/index.ts",
  },
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }],
  },
};

/** @type {import('jest').Config} */
module.exports = {
  projects: TIERS.map((tier) => ({ ...shared, displayName: tier, roots: [`<rootDir>/test/${tier}`] })),
  testTimeout: 30000,
};
