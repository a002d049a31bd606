import { createStore } from "jotai";
import type { ClientFrame, MerchantView, ServerFrame, WireError } from "../protocol/wire";
import type { Notice } from "./atoms";
import { LiveClient, type SocketLike } from "./client";
import { decodeAny, encodeFrame } from "./codec";
import { everySection } from "./permissions";

// A socket the tests play the server's side of, and a client wired to it.

export class FakeSocket implements SocketLike {
  binaryType: BinaryType = "blob";
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  sent: ClientFrame[] = [];
  closedWith: number | undefined;

  send(data: Uint8Array) {
    this.sent.push(decodeAny(data) as ClientFrame);
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }
  receive(frame: ServerFrame) {
    const bytes = encodeFrame(frame as unknown as ClientFrame);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    this.onmessage?.({ data: buffer } as MessageEvent);
  }
  serverClose(code: number) {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
}

export function noticeError(notice: Notice | null): WireError | undefined {
  return notice && "error" in notice ? notice.error : undefined;
}

export function merchantView(id = "mer_1", name = "Karoo Gym"): MerchantView {
  return { id, name, role: "owner", permissions: everySection("write") };
}

export function welcome(epoch: string, seq: number, build = "b1", merchant = merchantView(), mode: "live" | "test" = "test"): ServerFrame {
  return {
    t: "Welcome",
    epoch,
    seq,
    build,
    user: { id: "usr_1", name: "Thandi", email: "t@example.co.za" },
    merchant,
    mode,
    merchants: [merchant],
  };
}

type SetupOptions = {
  onSignedOut?: () => void;
  onBuildMismatch?: (build: string) => void;
  onRetry?: (attempt: number) => void;
  network?: EventTarget;
};

export function setup(options: SetupOptions = {}) {
  const store = createStore();
  const sockets: FakeSocket[] = [];
  const client = new LiveClient({
    store,
    build: "b1",
    url: "ws://test/ws",
    createSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    ...options,
  });
  const last = () => sockets[sockets.length - 1];
  return { store, client, sockets, last };
}

export function connected(epoch = "ep_1", seq = 0) {
  const context = setup();
  context.client.start();
  context.last().open();
  context.last().receive(welcome(epoch, seq));
  return context;
}
