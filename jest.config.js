/** @type {import('jest').Config} */
module.exports = {
  preset: "ts-jest",
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  moduleNameMapper: {
    "^pulumi-blockchain-nodes$": "<rootDir>/src/index.ts",
    "^pulumi-blockchain-nodes/emulator$": "<rootDir>/src/emulator/index.ts",
  },
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }],
  },
  testTimeout: 30000,
};
