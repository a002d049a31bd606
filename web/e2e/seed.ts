import type { Page } from "playwright-core";
import { encodeFrame } from "../src/live/codec";
import type { CustomerInput } from "../src/protocol/wire";

/**
 * Creates customers over a second socket opened inside the page (so it carries the
 * page's session cookie), with frames encoded by the app's own codec.
 */
export async function seedCustomers(page: Page, inputs: CustomerInput[]): Promise<void> {
  const hello = Array.from(encodeFrame({ t: "Hello", build: "e2e-seed" }));
  const commands = inputs.map((input, index) =>
    Array.from(encodeFrame({ t: "Command", id: `seed-${Date.now()}-${index}`, command: { t: "CreateCustomer", input } })),
  );
  await page.evaluate(
    async ({ hello, commands }) => {
      const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
      socket.binaryType = "arraybuffer";
      await new Promise((done, fail) => {
        socket.onopen = done;
        socket.onerror = fail;
      });
      const welcomed = new Promise((done) => (socket.onmessage = done));
      socket.send(Uint8Array.from(hello));
      await welcomed;
      // Every command gets a Reply and every commit a Delta: wait for at least that many frames.
      let frames = 0;
      const answered = new Promise<void>((done) => {
        socket.onmessage = () => {
          frames += 1;
          if (frames >= commands.length * 2) done();
        };
      });
      for (const command of commands) socket.send(Uint8Array.from(command));
      await answered;
      socket.close(1000);
    },
    { hello, commands },
  );
}

export function customerInput(name: string, email: string): CustomerInput {
  return { name, email, cellphone: "", idNumber: "", addressLine1: "", addressLine2: "", city: "", postalCode: "", reference: "" };
}
