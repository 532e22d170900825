// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

/**
 * Layers: core ← shared ← agent ← host (an arrow points from a layer to the layers that may import it). The
 * webview imports only shared; the CLI never imports the host, nor the host the CLI or the webview. Each rule
 * below names the folders a layer must not reach; import specifiers are matched by path segment, so
 * `./hostname` is not `host/`.
 */
const vscode = {
  name: "vscode",
  message: "Only src/host may import vscode: reach the editor through an interface the host implements.",
};
const segment = (names) => `(^|/)(${names.join("|")})(/|$)`;
const layer = (forbidden, why) => ({
  paths: [vscode],
  patterns: [{ regex: segment(forbidden), message: why }],
});

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "**/*.vsix", "test-results/**", ".e2e-cache/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { prefer: "type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-exports": [
        "error",
        {
          restrictDefaultExports: {
            direct: true,
            named: true,
            defaultFrom: true,
            namedFrom: true,
            namespaceFrom: true,
          },
        },
      ],
    },
  },
  {
    files: ["src/core/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        layer(
          ["shared", "agent", "host", "cli", "webview-ui"],
          "src/core is the bottom layer: it imports no other layer.",
        ),
      ],
    },
  },
  {
    files: ["src/shared/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        layer(["agent", "host", "cli", "webview-ui"], "src/shared may import only src/core (types)."),
      ],
    },
  },
  {
    files: ["src/agent/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        layer(["host", "cli", "webview-ui"], "src/agent reaches the editor only through the interfaces in env.ts."),
      ],
    },
  },
  {
    files: ["src/host/**", "src/extension.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: segment(["cli", "webview-ui"]),
              message:
                "src/host is the top layer: it never imports the CLI, and reaches the webview only through messages.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/cli.ts", "src/cli/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        layer(["host", "webview-ui"], "The CLI runs without VS Code: it never imports src/host."),
      ],
    },
  },
  {
    files: ["webview-ui/src/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        layer(["core", "agent", "host", "cli"], "The webview sees only src/shared (the protocol and message types)."),
      ],
    },
  },
  {
    files: ["**/*.mjs", "**/*.js"],
    languageOptions: { globals: { ...globals.node } },
  },
);
