import { defineConfig } from "vitest/config";

// The real-agent suite (`npm run test:agents`): each agent installed from npm into ~/.cache/toolgate-agents by
// scripts/agents/setup.mjs, driven by a loopback model server. Files run one at a time: each spawns an agent.
export default defineConfig({
  test: {
    include: ["test/agents/**/*.test.ts"],
    environment: "node",
    testTimeout: 120000,
    hookTimeout: 300000,
    pool: "forks",
    fileParallelism: false,
  },
});
