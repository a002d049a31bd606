import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { entityVersionAtom, topicVersionsAtom, webhookDeliveriesAtom } from "../../live/cache";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import type { ErrorCode, WebhookDelivery, WebhookEndpoint } from "../../protocol/wire";

export type EndpointsState = { endpoints: WebhookEndpoint[]; eventTypes: string[]; error?: ErrorCode; loaded: boolean };

function codeOf(error: unknown): ErrorCode {
  return error instanceof LiveError ? error.wire.code : "internal";
}

/** The mode's endpoints, read again whenever a webhook command (any tab's) or a resync says so. */
export function useWebhookEndpoints(): EndpointsState {
  const client = useLiveClient();
  const version = useAtomValue(topicVersionsAtom).webhook_endpoint;
  const entities = useAtomValue(entityVersionAtom);
  const [state, setState] = useState<EndpointsState>({ endpoints: [], eventTypes: [], loaded: false });
  useEffect(() => {
    let current = true;
    client.query({ t: "ListWebhookEndpoints" }).then(
      (body) => {
        if (current && body.t === "WebhookEndpoints") setState({ endpoints: body.endpoints, eventTypes: body.eventTypes, loaded: true });
      },
      (error: unknown) => {
        if (current) setState((before) => ({ ...before, error: codeOf(error), loaded: true }));
      },
    );
    return () => {
      current = false;
    };
  }, [client, version, entities]);
  return state;
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

/** An endpoint's delivery log as it happens: read once, then every queued delivery and attempt lands in place. */
export function useDeliveries(endpointId: string): DeliveriesState {
  const client = useLiveClient();
  const version = useAtomValue(topicVersionsAtom).webhook_endpoint;
  const entities = useAtomValue(entityVersionAtom);
  const feed = useAtomValue(webhookDeliveriesAtom);
  const [state, setState] = useState<DeliveriesState>({ deliveries: [], loaded: false });
  useEffect(() => {
    let current = true;
    client.query({ t: "ListWebhookDeliveries", endpointId }).then(
      (body) => {
        if (current && body.t === "WebhookDeliveries") setState({ deliveries: body.deliveries, loaded: true });
      },
      (error: unknown) => {
        if (current) setState({ deliveries: [], error: codeOf(error), loaded: true });
      },
    );
    return () => {
      current = false;
    };
  }, [client, endpointId, version, entities]);
  const [seen, setSeen] = useState(feed.serial);
  if (seen !== feed.serial) {
    // Adjusting state while rendering: the feed's news are folded in before anything paints.
    setSeen(feed.serial);
    setState((before) => ({ ...before, deliveries: mergeDeliveries(before.deliveries, feed.deliveries, endpointId) }));
  }
  return state;
}
