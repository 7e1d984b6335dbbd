import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    // Vitest's default is one worker fewer than the cores, one on a 2-core machine; most test files wait on
    // servers, sockets and kubectl rather than compute, so two keep both cores busy.
    maxWorkers: 2,
  },
});
