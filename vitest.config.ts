import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    include: ["src/**/*.test.ts", "bench/**/*.test.ts"],
    setupFiles: ["src/testing/registerPlugins.ts"],
  },
});
