import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";

const web = resolve(import.meta.dirname, "..");
const repo = resolve(web, "..");
const binary = join(repo, "target", "debug", "backend");

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  export interface ProvidedContext {
    baseURL: string;
    // The folder the server writes every outgoing mail into, one .eml file each.
    mailDir: string;
    // The server's business date for the whole run, YYYY-MM-DD (see `businessDate` below).
    businessDate: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed`);
}

async function waitUntilServing(url: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`backend exited with ${server.exitCode}`);
    try {
      const response = await fetch(`${url}/api/auth/session`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error("backend did not start within 60 s");
}

/**
 * The day the suite runs on: `BUSINESS_DATE` when set (to run the suite as if it were another
 * day), otherwise today in South Africa (UTC+2, no daylight saving) as the server reckons it.
 * The server is pinned to it, so a run that crosses midnight keeps one business date and the
 * dates the tests write (`dates.ts`) always mean what they meant when written.
 */
function businessDate(): string {
  const pinned = process.env.BUSINESS_DATE;
  if (pinned) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(pinned)) throw new Error(`BUSINESS_DATE: ${pinned} is not a date as YYYY-MM-DD`);
    return pinned;
  }
  return new Date(Date.now() + 2 * 3_600_000).toISOString().slice(0, 10);
}

export async function setup(project: TestProject) {
  // Always test the app as it is now; E2E_SKIP_BUILD=1 reuses an existing build.
  if (process.env.E2E_SKIP_BUILD !== "1" || !existsSync(join(web, "dist", "index.html"))) run("npm", ["run", "build"], web);
  if (!existsSync(binary)) run("cargo", ["build", "-p", "backend"], repo);

  const dir = mkdtempSync(join(tmpdir(), "e2e-"));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const mailDir = join(dir, "mail");
  const today = businessDate();
  mkdirSync(mailDir, { recursive: true });
  const server = spawn(
    binary,
    [
      "serve",
      "--bind",
      `127.0.0.1:${port}`,
      "--database",
      `sqlite://${dir}/e2e.db`,
      "--web-dir",
      join(web, "dist"),
      "--mail-dir",
      mailDir,
      "--public-url",
      baseURL,
    ],
    {
      cwd: repo,
      stdio: ["ignore", "inherit", "inherit"],
      // Every test signs up from 127.0.0.1 against this one server: the per-address sign-up limit
      // (tested in the backend's own auth tests) would otherwise refuse the later files. The
      // webhook tests' receivers listen on 127.0.0.1, which the server otherwise refuses.
      env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? "warn", SIGNUP_LIMIT_PER_ADDRESS: "1000", WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: "true", BUSINESS_DATE: today },
    },
  );
  await waitUntilServing(baseURL, server);
  project.provide("baseURL", baseURL);
  project.provide("mailDir", mailDir);
  project.provide("businessDate", today);

  return async () => {
    server.kill("SIGTERM");
    await new Promise((done) => {
      if (server.exitCode !== null) return done(undefined);
      const timer = setTimeout(() => {
        server.kill("SIGKILL");
        done(undefined);
      }, 10_000);
      server.once("exit", () => {
        clearTimeout(timer);
        done(undefined);
      });
    });
    rmSync(dir, { recursive: true, force: true });
  };
}
