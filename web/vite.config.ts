import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

// One id per build: compiled into the app and written beside it, so the server
// can tell a tab that it runs an older build.
const buildId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

function writeBuildId(): Plugin {
  return {
    name: "write-build-id",
    apply: "build",
    closeBundle() {
      const outDir = resolve(import.meta.dirname, "dist");
      mkdirSync(outDir, { recursive: true });
      writeFileSync(resolve(outDir, "build-id.txt"), `${buildId}\n`);
    },
  };
}

// A Brotli and a gzip copy beside each asset, compressed once at their best
// settings: the server sends the one a browser accepts instead of compressing
// the same file on every request at a lower level.
function precompressAssets(): Plugin {
  return {
    name: "precompress-assets",
    apply: "build",
    closeBundle() {
      const assets = resolve(import.meta.dirname, "dist", "assets");
      for (const name of readdirSync(assets).filter((n) => /\.(js|css|svg)$/.test(n))) {
        const file = join(assets, name);
        const bytes = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), writeBuildId(), precompressAssets()],
  define: {
    __BUILD_ID__: JSON.stringify(buildId),
  },
  server: {
    fs: { allow: [resolve(import.meta.dirname, "..")] },
    proxy: {
      "/api": "http://127.0.0.1:8080",
      "/ws": { target: "ws://127.0.0.1:8080", ws: true },
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Which chunks and styles each entry and screen pulls in: scripts/first-load.mjs reads it.
    manifest: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        // Only the libraries every screen needs are grouped; the rest (spreadsheets, QR codes,
        // dialogs) travel with the screens that use them and load on demand.
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: "router", test: /node_modules[\\/]react-router[\\/]/ },
            { name: "vendor", test: /node_modules[\\/](i18next|react-i18next|jotai|msgpack-lite|msgpack-|int64-buffer|ieee754|isarray|buffer|event-lite)[\\/]/ },
          ],
        },
      },
    },
  },
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "e2e/**/*.test.ts"],
    environment: "node",
  },
});
