import type { ClientFrame, Command, MerchantView, Query, ReplyBody, Resume, ServerFrame, WireError } from "../protocol/wire";
import { accessChange } from "./access";
import { accessChangeAtom, connectionAtom, identityAtom, noticeAtom, placeAtom, placeVisitAtom, presenceAtom, type Moved } from "./atoms";
import {
  applyChanges,
  dropCache,
  forgetUser,
  paymentMethodSettingsAtom,
  putBusinessInfo,
  putCards,
  putEMandateRequests,
  putCustomers,
  putImports,
  putMandates,
  putOrders,
  putPayPages,
  putPayments,
  putProfile,
  putTransactions,
} from "./cache";
import { decodeFrame, encodeFrame } from "./codec";
import { samePlace, type Place } from "./place";
import { judgeDelta, needsResync, nextBackoff } from "./position";
import { applyPresence } from "./presence";
import type { Store } from "./store";

export class LiveError extends Error {
  constructor(readonly wire: WireError) {
    super(wire.code);
  }
}

// The subset of WebSocket the client uses, so tests can hand in a fake.
export type SocketLike = {
  binaryType: BinaryType;
  readyState: number;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
};

export type LiveClientOptions = {
  store: Store;
  build: string;
  url: string;
  createSocket?: (url: string) => SocketLike;
  onSignedOut?: () => void;
  onBuildMismatch?: (serverBuild: string) => void;
  // Called before each retry after the first; a socket refused for an ended session looks like any failure.
  onRetry?: (attempt: number) => void;
  // Where "online" and "offline" are announced; the window in a browser.
  network?: EventTarget;
};

type Pending = {
  // Encoded once: a re-send after a reconnect is byte-identical, id included.
  bytes: Uint8Array;
  // Failed commands go to the global notice; a failed query is shown by the screen that asked.
  announce: boolean;
  isCommand: boolean;
  resolve: (body: ReplyBody) => void;
  reject: (error: LiveError) => void;
  // The socket it last went out on, to tell which requests a server that closed for an unreadable frame had read.
  sentOn: SocketLike | null;
};

const OPEN = 1;
const HEARTBEAT_MS = 20_000;
// Close codes: 4001 from the server means the session ended; 4002 that the user has
// too many sockets open; 4000 is ours for "start over".
const SIGNED_OUT = 4001;
const TOO_MANY_SOCKETS = 4002;
// 4003: the user was removed from the team of the merchant this socket had open.
const REMOVED = 4003;
// 4005: the user is on no merchant's team at all (the last one removed them).
const NO_TEAM = 4005;
// 4006: the Hello named a merchant whose team the user is not on (an old or a passed-on link).
const NOT_ON_TEAM = 4006;
const RESTART = 4000;
// 1007 (invalid payload): the server could not read one of our frames and stopped reading.
const UNREADABLE_FRAME = 1007;

export class LiveClient {
  private socket: SocketLike | null = null;
  private welcomed = false;
  private stopped = true;
  private attempt = 0;
  private position: Resume | null = null;
  private readonly pending = new Map<string, Pending>();
  private viewing: string | undefined;
  private editing: string | undefined;
  private target: Place = {};
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  private awaitingPong = false;
  private offline = false;
  private readonly options: LiveClientOptions;

  constructor(options: LiveClientOptions) {
    this.options = options;
  }

  private get network(): EventTarget | undefined {
    return this.options.network ?? (typeof window === "undefined" ? undefined : window);
  }

  // A socket can look open for a long time after the network went away; drop it
  // at once and wait for the network instead of burning retries.
  private readonly wentOffline = (): void => {
    this.offline = true;
    clearTimeout(this.retryTimer);
    this.teardown(RESTART);
    this.store.set(connectionAtom, "reconnecting");
  };

  // After a refusal for too many tabs, coming back to this tab (having closed others) tries again.
  private readonly cameBack = (): void => {
    this.network?.removeEventListener("focus", this.cameBack);
    if (this.stopped || this.socket) return;
    this.attempt = 0;
    this.connect();
  };

  private readonly cameOnline = (): void => {
    this.offline = false;
    if (this.stopped || this.socket) return;
    clearTimeout(this.retryTimer);
    this.attempt = 0;
    this.connect();
  };

  get store(): Store {
    return this.options.store;
  }

  /** The stream position of the last applied delta, for tests and diagnostics. */
  get resumePosition(): Resume | null {
    return this.position;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.offline = false;
    this.network?.addEventListener("offline", this.wentOffline);
    this.network?.addEventListener("online", this.cameOnline);
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.network?.removeEventListener("offline", this.wentOffline);
    this.network?.removeEventListener("online", this.cameOnline);
    this.network?.removeEventListener("focus", this.cameBack);
    this.teardown();
    for (const entry of this.pending.values()) entry.reject(new LiveError({ code: "unauthenticated" }));
    this.pending.clear();
    this.position = null;
    forgetUser(this.store);
    this.store.set(identityAtom, null);
    this.store.set(accessChangeAtom, null);
    this.store.set(presenceAtom, []);
    this.store.set(connectionAtom, "idle");
  }

  /**
   * Sends a command; a failure goes to the global notice unless `announce` is false,
   * for forms that show the error beside their own fields.
   */
  command(command: Command, options: { announce?: boolean } = {}): Promise<ReplyBody> {
    return this.request({ t: "Command", id: newId(), command }, options.announce ?? true);
  }

  query(query: Query): Promise<ReplyBody> {
    return this.request({ t: "Query", id: newId(), query }, false);
  }

  setViewing(path: string | undefined): void {
    if (this.viewing === path) return;
    this.viewing = path;
    this.announce();
  }

  /** The record (its path) whose form this tab has open, or undefined when the form closes. */
  setEditing(path: string | undefined): void {
    if (this.editing === path) return;
    this.editing = path;
    this.announce();
  }

  private announce(): void {
    if (this.welcomed) this.send({ t: "Presence", viewing: this.viewing, editing: this.editing });
  }

  /** Open another merchant or mode on the same socket; everything shown is fetched again. */
  switchTo(target: Place): void {
    this.moveTo(target);
    if (this.socket?.readyState === OPEN) {
      this.welcomed = false;
      this.send(this.hello());
    }
  }

  private moveTo(target: Place): void {
    if (!samePlace(target, this.target)) this.leavePlace();
    this.setTarget(target);
    this.position = null;
    dropCache(this.store);
    // The notice of a new role is about the merchant being left.
    this.store.set(accessChangeAtom, null);
  }

  private setTarget(target: Place): void {
    this.target = target;
    // Every Welcome names the place; only a change should re-render what shows it.
    if (!samePlace(this.store.get(placeAtom), target)) this.store.set(placeAtom, target);
  }

  // Nothing asked of the place being left may land in the next one: an unanswered command
  // may have run there, and a query names its records. They end here, unannounced (the
  // screens that sent them go; what stays asks again as the cache is dropped), and a late
  // answer from the old stream finds no one waiting.
  private leavePlace(): void {
    this.store.set(placeVisitAtom, (visit) => visit + 1);
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const entry of waiting) entry.reject(new LiveError({ code: "not_welcomed" }));
  }

  private request(frame: ClientFrame & { id: string }, announce: boolean): Promise<ReplyBody> {
    return new Promise((resolve, reject) => {
      let bytes: Uint8Array;
      try {
        bytes = encodeFrame(frame);
      } catch {
        // Too large for one frame: the server would refuse it, so it never leaves the tab.
        if (announce) this.fail(reject, { code: "bad_frame" });
        else reject(new LiveError({ code: "bad_frame" }));
        return;
      }
      const isCommand = frame.t === "Command";
      const entry: Pending = { bytes, announce, isCommand, resolve, reject, sentOn: null };
      // Sending a command again is the user acting on the last failure: its notice has been read.
      if (isCommand) this.clearCommandNotice();
      this.pending.set(frame.id, entry);
      if (this.welcomed) this.sendPending(entry);
    });
  }

  private sendPending(entry: Pending): void {
    this.sendBytes(entry.bytes);
    entry.sentOn = this.socket;
  }

  private fail(reject: (error: LiveError) => void, wire: WireError): void {
    this.announceError(wire);
    reject(new LiveError(wire));
  }

  /** Shows an error in the global notice: for a form that handles some errors itself and not others. */
  announceError(wire: WireError): void {
    this.store.set(noticeAtom, (notice) => ({ serial: (notice?.serial ?? 0) + 1, error: wire, source: "command" }));
  }

  // A command's failure notice would otherwise outlive the fix and show on the next screen.
  // Connection notices (too many tabs, removed from a team) are not about a command and stay.
  private clearCommandNotice(): void {
    if (this.store.get(noticeAtom)?.source === "command") this.store.set(noticeAtom, null);
  }

  private connect(): void {
    this.store.set(connectionAtom, this.attempt === 0 ? "connecting" : "reconnecting");
    const create = this.options.createSocket ?? ((url: string) => new WebSocket(url) as SocketLike);
    const socket = create(this.options.url);
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    socket.onopen = () => this.send(this.hello());
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = (event) => this.closed(socket, event.code);
    socket.onerror = () => undefined;
  }

  private hello(): ClientFrame {
    return {
      t: "Hello",
      build: this.options.build,
      resume: this.position ?? undefined,
      merchantId: this.target.merchantId,
      mode: this.target.mode,
    };
  }

  private send(frame: ClientFrame): void {
    this.sendBytes(encodeFrame(frame));
  }

  private sendBytes(bytes: Uint8Array): void {
    if (this.socket?.readyState === OPEN) this.socket.send(bytes);
  }

  private receive(data: unknown): void {
    if (!(data instanceof ArrayBuffer)) return;
    let frame: ServerFrame;
    try {
      frame = decodeFrame(data);
    } catch {
      this.restart();
      return;
    }
    this.handle(frame);
  }

  /** Applies one server frame; public so tests can drive the state machine directly. */
  handle(frame: ServerFrame): void {
    switch (frame.t) {
      case "Welcome":
        return this.welcome(frame);
      case "Delta":
        // Until the Welcome of a (re)opened stream, deltas belong to the stream we left.
        if (!this.welcomed) return;
        switch (judgeDelta(this.position, frame.seq)) {
          case "apply":
            applyChanges(this.store, frame.changes);
            this.position = { epoch: this.position?.epoch ?? "", seq: frame.seq };
            return;
          case "stale":
            return;
          case "gap":
            return this.restart();
        }
        return;
      case "Resync":
        dropCache(this.store);
        this.position = { epoch: frame.epoch, seq: frame.seq };
        return;
      case "Reply":
        return this.reply(frame.id, frame.ok, frame.error);
      case "Presence":
        this.store.set(presenceAtom, frame.members);
        return;
      case "PresenceChanged":
        this.store.set(presenceAtom, applyPresence(this.store.get(presenceAtom), frame));
        return;
      case "Pong":
        this.awaitingPong = false;
        return;
      case "Access":
        return this.regranted(frame.merchant);
    }
  }

  private welcome(frame: Extract<ServerFrame, { t: "Welcome" }>): void {
    const next = { epoch: frame.epoch, seq: frame.seq };
    if (needsResync(this.position, next)) dropCache(this.store);
    this.position = next;
    this.welcomed = true;
    this.attempt = 0;
    this.setTarget({ merchantId: frame.merchant.id, mode: frame.mode });
    this.store.set(identityAtom, {
      user: frame.user,
      merchant: frame.merchant,
      mode: frame.mode,
      merchants: frame.merchants,
    });
    this.store.set(connectionAtom, "online");
    if (frame.build && frame.build !== this.options.build) this.options.onBuildMismatch?.(frame.build);
    this.announce();
    // Unanswered requests go again with the same id: the server runs each command once.
    for (const entry of this.pending.values()) this.sendPending(entry);
    this.startHeartbeat();
  }

  // The member's role changed while the tab was open: what it shows follows at once.
  private regranted(merchant: MerchantView): void {
    const identity = this.store.get(identityAtom);
    if (!identity || identity.merchant.id !== merchant.id) return;
    const change = accessChange(identity.merchant, merchant);
    if (change) this.store.set(accessChangeAtom, (last) => ({ ...change, serial: (last?.serial ?? 0) + 1 }));
    this.store.set(identityAtom, {
      ...identity,
      merchant,
      merchants: identity.merchants.map((m) => (m.id === merchant.id ? merchant : m)),
    });
  }

  private reply(id: string, ok: ReplyBody | undefined, error: WireError | undefined): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    if (error || !ok) {
      const wire = error ?? { code: "internal" };
      if (entry.announce) this.fail(entry.reject, wire);
      else entry.reject(new LiveError(wire));
      return;
    }
    this.cacheReply(ok);
    if (entry.isCommand) this.clearCommandNotice();
    entry.resolve(ok);
  }

  // Replies that carry records fill the cache before the caller sees them.
  private cacheReply(body: ReplyBody): void {
    switch (body.t) {
      case "CustomerPage":
        return putCustomers(this.store, body.items);
      case "Customer":
        return putCustomers(this.store, [body.customer]);
      case "Profile":
        return putProfile(this.store, body.profile);
      case "BusinessInfo":
        return putBusinessInfo(this.store, body.info, body.twoFactorRequired);
      case "MandatePage":
        return putMandates(this.store, body.items);
      case "Mandate":
        return putMandates(this.store, [body.mandate]);
      case "PaymentPage":
        return putPayments(this.store, body.items);
      case "Payment":
        return putPayments(this.store, [body.payment]);
      case "TransactionPage":
        return putTransactions(this.store, body.items);
      case "Transaction":
        return putTransactions(this.store, [body.transaction]);
      case "ImportPage":
        return putImports(this.store, body.items);
      case "Import":
        return putImports(this.store, [body.import]);
      case "PayPageList":
        return putPayPages(this.store, body.items);
      case "PayPage":
        return putPayPages(this.store, [body.page]);
      case "OrderPage":
        return putOrders(this.store, body.items);
      case "Order":
        return putOrders(this.store, [body.order]);
      case "CardPage":
        return putCards(this.store, body.items);
      case "EMandateRequestPage":
        return putEMandateRequests(this.store, body.items);
      case "PaymentMethodSettings":
        return this.store.set(paymentMethodSettingsAtom, body.settings);
      default:
        // Committed, Done, Sessions, TwoFactorEnrolment, BackupCodes, WebhookSecret: for the
        // caller only.
        // BankAccounts does not say whose they are: the screen that asked stores them.
        // Secrets and backup codes in particular never enter the shared store.
        return;
    }
  }

  private startHeartbeat(): void {
    clearInterval(this.heartbeatTimer);
    this.awaitingPong = false;
    this.heartbeatTimer = setInterval(() => {
      // No Pong since the last Ping: the link is dead even if the socket looks open.
      if (this.awaitingPong) return this.restart();
      this.awaitingPong = true;
      this.send({ t: "Ping" });
    }, HEARTBEAT_MS);
  }

  /** Drop this socket and connect again, resuming from the last position. */
  private restart(): void {
    this.teardown(RESTART);
    this.reconnectLater();
  }

  private teardown(code = 1000): void {
    clearInterval(this.heartbeatTimer);
    const socket = this.socket;
    this.socket = null;
    this.welcomed = false;
    if (socket) {
      socket.onopen = null;
      socket.onmessage = null;
      socket.onclose = null;
      if (socket.readyState <= OPEN) socket.close(code);
    }
  }

  private closed(socket: SocketLike, code: number): void {
    if (socket !== this.socket) return;
    this.teardown();
    if (code === SIGNED_OUT) {
      this.stop();
      this.options.onSignedOut?.();
      return;
    }
    if (code === TOO_MANY_SOCKETS) return this.refused();
    if (code === NO_TEAM) {
      // Every retry would be closed the same way: stop, and let the app say why (its screen
      // says it all, so the removal's notice goes).
      this.stop();
      dropCache(this.store);
      this.store.set(noticeAtom, null);
      this.store.set(connectionAtom, "noTeam");
      return;
    }
    if (code === REMOVED || code === NOT_ON_TEAM) {
      // Nothing of that merchant may stay on screen: say why, and open the merchant the
      // server chooses of the user's own (the address follows the Welcome).
      const moved: Moved =
        code === REMOVED ? { why: "removed", from: this.store.get(identityAtom)?.merchant.name ?? "" } : { why: "notOnTeam" };
      this.store.set(noticeAtom, (notice) => ({ serial: (notice?.serial ?? 0) + 1, moved, source: "connection" }));
      this.moveTo({ mode: this.target.mode });
      this.attempt = 0;
      return this.connect();
    }
    if (code === UNREADABLE_FRAME) this.failRequestsSentOn(socket);
    this.reconnectLater();
  }

  // One of the requests that socket carried is the frame the server could not read; sent again
  // it would close the next socket too, and its caller would wait forever. Which one cannot be
  // told, so all of them fail. One read before the bad frame may still have run: the message
  // asks for a reload, which shows what did.
  private failRequestsSentOn(socket: SocketLike): void {
    for (const [id, entry] of this.pending) {
      if (entry.sentOn !== socket) continue;
      this.pending.delete(id);
      const wire: WireError = { code: "bad_frame" };
      if (entry.announce) this.fail(entry.reject, wire);
      else entry.reject(new LiveError(wire));
    }
  }

  // Retrying at once would be refused again and again: say why, and wait for the user.
  private refused(): void {
    clearTimeout(this.retryTimer);
    this.store.set(connectionAtom, "refused");
    this.store.set(noticeAtom, (notice) => ({ serial: (notice?.serial ?? 0) + 1, error: { code: "too_many_sockets" }, source: "connection" }));
    this.network?.addEventListener("focus", this.cameBack);
  }

  // Backoff even after our own restarts, so a server that keeps skipping seqs is not hammered.
  private reconnectLater(): void {
    if (this.stopped) return;
    this.store.set(connectionAtom, "reconnecting");
    if (this.offline) return;
    const delay = nextBackoff(this.attempt);
    this.attempt += 1;
    if (this.attempt > 1) this.options.onRetry?.(this.attempt);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }
}

function newId(): string {
  return typeof crypto.randomUUID === "function"
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
