import { describe, expect, it } from "vitest";
import type { WebhookDelivery } from "../../protocol/wire";
import { mergeDeliveries } from "./useWebhooks";

function delivery(id: string, createdAt: number, patch: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return { id, endpointId: "whe_1", eventId: `evt_${id}`, eventType: "payment.created", state: "pending", attempts: 0, nextAttemptAt: createdAt, payload: "{}", createdAt, ...patch };
}

describe("the live delivery log", () => {
  it("changes a known delivery in place and puts a new one on top", () => {
    const log = [delivery("b", 2), delivery("a", 1)];
    const merged = mergeDeliveries(log, [delivery("a", 1, { state: "delivered", attempts: 1 }), delivery("c", 3)], "whe_1");
    expect(merged.map((d) => d.id)).toEqual(["c", "b", "a"]);
    expect(merged[2]).toMatchObject({ state: "delivered", attempts: 1 });
  });

  it("ignores another endpoint's deliveries", () => {
    const merged = mergeDeliveries([delivery("a", 1)], [delivery("x", 5, { endpointId: "whe_2" })], "whe_1");
    expect(merged.map((d) => d.id)).toEqual(["a"]);
  });
});
