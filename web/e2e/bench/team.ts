// What the benchmarks share: an owner and an admin teammate, each in their own browser, both in
// test mode, and a socket in the owner's tab that sends commands (so opening it is not timed).
import type { Page } from "playwright-core";
import { encodeFrame } from "../../src/live/codec";
import type { Command } from "../../src/protocol/wire";
import { openBrowser, type Session } from "../browser";
import { joinTeam, signUpFresh } from "../flows";
import { Shell } from "../pages/Shell";

export const SOCKET = "__benchSocket";

export type Team = { owner: Session; teammate: Session; ownerPage: Page; page: Page; close: () => Promise<void> };

/** Signs up an owner, invites an admin who signs up from the mail; the admin's tab is in test mode. */
export async function openTeam(prefix: string, prepare?: (teammate: Session) => Promise<void>): Promise<Team> {
  const owner = await openBrowser();
  const teammate = await openBrowser();
  await prepare?.(teammate);
  const ownerPage = await owner.newPage();
  await signUpFresh(ownerPage, `${prefix}-owner`);
  await new Shell(ownerPage).waitUntilLive();
  const { page } = await joinTeam(ownerPage, teammate, "admin", "Pieter Botha");
  await page.getByTestId("mode-switch").click();
  await page.getByTestId("test-strip").waitFor();
  await openCommandSocket(ownerPage);
  return {
    owner,
    teammate,
    ownerPage,
    page,
    close: async () => {
      await owner.close();
      await teammate.close();
    },
  };
}

/** Opens one socket in the owner's tab for the commands, noting when each frame arrives. */
async function openCommandSocket(page: Page): Promise<void> {
  const hello = Array.from(encodeFrame({ t: "Hello", build: "bench", mode: "test" }));
  await page.evaluate(
    async ({ hello, name }) => {
      const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
      socket.binaryType = "arraybuffer";
      await new Promise((done) => (socket.onopen = done));
      const welcomed = new Promise((done) => (socket.onmessage = done));
      socket.send(Uint8Array.from(hello));
      await welcomed;
      (window as unknown as Record<string, WebSocket>)[name] = socket;
      // When each frame reached this browser: a delta reaches the teammate's at about the same time.
      const arrivals: number[] = [];
      (window as unknown as Record<string, number[]>)[`${name}Arrivals`] = arrivals;
      socket.onmessage = () => arrivals.push(Date.now());
    },
    { hello, name: SOCKET },
  );
}

/** Sends a command on that socket; answers with the time it left. */
export async function send(page: Page, command: Command): Promise<number> {
  const frame = Array.from(encodeFrame({ t: "Command", id: `bench-${Date.now()}-${Math.random()}`, command }));
  return page.evaluate(
    ({ frame, name }) => {
      const socket = (window as unknown as Record<string, WebSocket>)[name];
      const at = Date.now();
      socket.send(Uint8Array.from(frame));
      return at;
    },
    { frame, name: SOCKET },
  );
}
