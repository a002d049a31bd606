import { useAtomValue } from "jotai";
import { useMemo, useState } from "react";
import { webhookDeliveriesAtom, type Topic } from "../../live/cache";
import { useLiveQuery } from "../../live/useLiveQuery";
import type { ErrorCode, ReplyBody, WebhookDelivery, WebhookEndpoint } from "../../protocol/wire";

export type EndpointsState = { endpoints: WebhookEndpoint[]; eventTypes: string[]; error?: ErrorCode; loaded: boolean };

// Any tab's webhook command moves the endpoints, and their logs with them.
const FOLLOWS: readonly Topic[] = ["webhook_endpoint"];

const pickEndpoints = (reply: ReplyBody) => (reply.t === "WebhookEndpoints" ? { endpoints: reply.endpoints, eventTypes: reply.eventTypes } : undefined);
const pickDeliveries = (reply: ReplyBody) => (reply.t === "WebhookDeliveries" ? reply.deliveries : undefined);

/** The mode's endpoints, read again whenever a webhook command (any tab's) or a resync says so. */
export function useWebhookEndpoints(): EndpointsState {
  const view = useLiveQuery({ t: "ListWebhookEndpoints" }, { pick: pickEndpoints, follows: FOLLOWS });
  if (view.state === "ready") return { ...view.value, loaded: true };
  return { endpoints: [], eventTypes: [], loaded: view.state === "error", error: view.state === "error" ? view.code : undefined };
}

/** Folds live deliveries into a log, newest first: a known one changes in place, a new one goes on top. */
export function mergeDeliveries(log: WebhookDelivery[], incoming: WebhookDelivery[], endpointId: string): WebhookDelivery[] {
  const byId = new Map(log.map((delivery) => [delivery.id, delivery]));
  for (const delivery of incoming) {
    if (delivery.endpointId === endpointId) byId.set(delivery.id, delivery);
  }
  return [...byId.values()].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

export type DeliveriesState = { deliveries: WebhookDelivery[]; error?: ErrorCode; loaded: boolean };

type Arrived = { endpointId: string; serial: number; deliveries: WebhookDelivery[] };

/** An endpoint's delivery log as it happens: read once, then every queued delivery and attempt lands in place. */
export function useDeliveries(endpointId: string): DeliveriesState {
  const view = useLiveQuery({ t: "ListWebhookDeliveries", endpointId }, { pick: pickDeliveries, follows: FOLLOWS });
  const feed = useAtomValue(webhookDeliveriesAtom);
  // What the deltas brought since the log opened, laid over whichever answer is shown: an
  // attempt that lands while the log is asked for again is not lost.
  const [arrived, setArrived] = useState<Arrived>({ endpointId, serial: feed.serial, deliveries: [] });
  // Adjusting state while rendering: the feed's news are folded in before anything paints.
  if (arrived.endpointId !== endpointId) setArrived({ endpointId, serial: feed.serial, deliveries: [] });
  else if (arrived.serial !== feed.serial) {
    setArrived({ endpointId, serial: feed.serial, deliveries: mergeDeliveries(arrived.deliveries, feed.deliveries, endpointId) });
  }
  const answer = view.state === "ready" ? view.value : undefined;
  const deliveries = useMemo(
    () => (answer ? mergeDeliveries(answer, arrived.deliveries, endpointId) : []),
    [answer, arrived.deliveries, endpointId],
  );
  if (view.state === "loading") return { deliveries: [], loaded: false };
  if (view.state === "error") return { deliveries: [], error: view.code, loaded: true };
  return { deliveries, loaded: true };
}
