// @ts-check
const eslint = require("@eslint/js");
const tseslint = require("typescript-eslint");

const TIERS = require("./jest.config.js").projects.map(
  (/** @type {{ displayName: string }} */ p) => p.displayName,
);
const CONFIG_HINT = /pulumi config|BLOCKCHAIN_API_(KEY|URL)/.source;

module.exports = tseslint.config(
  {
    ignores: [
      "dist/",
      "build/",
      "node_modules/",
      "coverage/",
      "examples/*/node_modules/",
      "**/*.d.ts",
      "sdk/",
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        require: "readonly",
        module: "writable",
        process: "readonly",
        console: "readonly",
        __dirname: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  {
    // jest runs only the tiers' folders (jest.config.js): a test file anywhere else would never run.
    files: ["**/*.test.ts"],
    ignores: TIERS.map((tier) => `test/${tier}/**`),
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "Program",
          message: `A test file belongs in a tier's folder: test/{${TIERS.join(",")}}/.`,
        },
      ],
    },
  },
  {
    // The API layer states facts; how to set a value with Pulumi or the environment is the settings' job.
    files: ["src/api/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...[`Literal[value=/${CONFIG_HINT}/]`, `TemplateElement[value.raw=/${CONFIG_HINT}/]`].map(
          (selector) => ({
            selector,
            message:
              "src/api/ messages name no `pulumi config` command or BLOCKCHAIN_API_* variable (src/settings/ does).",
          }),
        ),
      ],
    },
  },
);
