import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// A server of its own with SENTRY_DSN pointing at a small envelope receiver
// run here: the web app is handed the DSN, loads the SDK and reports an
// uncaught error, with the reset link's token cut from the address.

const repo = resolve(import.meta.dirname, "..", "..");
const TOKEN = "resettoken0123456789abcdef";

function listen(server: Server): Promise<number> {
  return new Promise((done) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      done(typeof address === "object" && address ? address.port : 0);
    });
  });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  const port = await listen(probe);
  await new Promise((done) => probe.close(done));
  return port;
}

describe("error reporting in the browser", () => {
  const envelopes: string[] = [];
  let receiver: Server;
  let backend: ChildProcess;
  let baseURL: string;
  let context: BrowserContext;
  let dir: string;

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        if (request.method === "POST" && request.url?.startsWith("/api/42/envelope/")) envelopes.push(body);
        response.writeHead(200, { "access-control-allow-origin": "*", "content-type": "application/json" });
        response.end("{}");
      });
    });
    const receiverPort = await listen(receiver);
    dir = mkdtempSync(join(tmpdir(), "e2e-reporting-"));
    const port = await freePort();
    baseURL = `http://127.0.0.1:${port}`;
    backend = spawn(
      join(repo, "target", "debug", "backend"),
      ["serve", "--bind", `127.0.0.1:${port}`, "--database", `sqlite://${dir}/e2e.db`, "--web-dir", join(repo, "web", "dist")],
      {
        cwd: dir,
        stdio: ["ignore", "inherit", "inherit"],
        env: { ...process.env, RUST_LOG: "warn", SENTRY_DSN: `http://publickey@127.0.0.1:${receiverPort}/42`, MAIL_DIR: join(dir, "mail") },
      },
    );
    const deadline = Date.now() + 60_000;
    for (;;) {
      const up = await fetch(`${baseURL}/healthz`).then((r) => r.ok).catch(() => false);
      if (up) break;
      if (Date.now() > deadline) throw new Error("backend did not start");
      await new Promise((done) => setTimeout(done, 200));
    }
    const profile = join(dir, "chromium");
    context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
      headless: true,
      baseURL,
    });
  });

  afterAll(async () => {
    await context?.close();
    backend?.kill("SIGTERM");
    receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reports an uncaught error without the link's token", async () => {
    const page = await context.newPage();
    await page.goto(`/auth/reset/${TOKEN}`);
    // The SDK arrives after the first paint: throw until a report is in.
    await expect
      .poll(
        async () => {
          await page.evaluate(() => {
            setTimeout(() => {
              throw new Error("e2e uncaught failure");
            }, 0);
          });
          return envelopes.some((body) => body.includes("e2e uncaught failure"));
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true);
    const report = envelopes.find((body) => body.includes("e2e uncaught failure")) ?? "";
    expect(report).toContain("/auth/reset/[redacted]");
    expect(envelopes.join("\n")).not.toContain(TOKEN);
  });
});
