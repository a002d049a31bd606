import type { Page } from "playwright-core";
import { encodeFrame } from "../src/live/codec";
import type { Command, Mode } from "../src/protocol/wire";

/**
 * Runs commands over a second socket opened inside the page (so it carries the page's
 * session cookie) in the given mode, one at a time, each once its answer came back.
 */
export async function runCommands(page: Page, mode: Mode, commands: Command[]): Promise<void> {
  const hello = Array.from(encodeFrame({ t: "Hello", build: "e2e-seed", mode }));
  const frames = commands.map((command, index) => Array.from(encodeFrame({ t: "Command", id: `seed-${Date.now()}-${index}`, command })));
  await page.evaluate(
    async ({ hello, frames }) => {
      const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
      socket.binaryType = "arraybuffer";
      await new Promise((done, fail) => {
        socket.onopen = done;
        socket.onerror = fail;
      });
      const next = () => new Promise((done) => (socket.onmessage = done));
      const welcomed = next();
      socket.send(Uint8Array.from(hello));
      await welcomed;
      for (const frame of frames) {
        // The sender gets its Delta and its Reply: the command has run once anything comes back.
        const answered = next();
        socket.send(Uint8Array.from(frame));
        await answered;
      }
      socket.close(1000);
    },
    { hello, frames },
  );
}
