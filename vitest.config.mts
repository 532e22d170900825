import { defineConfig } from "vitest/config";

// vitest reads its config from a default export: the one sanctioned default export in the project.
export default defineConfig({
  test: {
    include: [
      "test/unit/**/*.test.ts",
      "test/unit/**/*.test.tsx",
      "test/integration/**/*.test.ts",
      "webview-ui/test/**/*.test.tsx",
    ],
    environment: "node",
    testTimeout: 20000,
    pool: "threads",
  },
});
