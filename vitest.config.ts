import { defineConfig } from "vitest/config";

export const config = defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts", "test/unit/**/*.test.tsx", "test/integration/**/*.test.ts", "webview-ui/test/**/*.test.tsx"],
    environment: "node",
    testTimeout: 20000,
    pool: "threads",
  },
});
// vitest needs a default export for its config file; this is the one sanctioned default export.
// eslint-disable-next-line no-restricted-exports
export default config;
