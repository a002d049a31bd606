import { describe, expect, it } from "vitest";
import { QUICK_START_LANGUAGES, quickStart, verifyWebhook } from "./quickStarts";

const values = { apiBase: "https://pay.example.co.za/api/v1", tokenPrefix: "pdk_test_" };

describe("quick starts", () => {
  it("each language uses the merchant's base address and test token, and sends an idempotency key", () => {
    for (const language of QUICK_START_LANGUAGES) {
      const text = quickStart(language, values);
      expect(text).toContain("https://pay.example.co.za/api/v1");
      expect(text).toContain("pdk_test_");
      expect(text).toContain("Idempotency-Key");
      expect(text).not.toContain("undefined");
    }
  });

  it("each language verifies with the raw body and the three Standard Webhooks headers", () => {
    for (const language of ["node", "php"] as const) {
      const text = verifyWebhook(language);
      for (const header of ["webhook-id", "webhook-timestamp", "webhook-signature"]) expect(text).toContain(header);
    }
    expect(verifyWebhook("python")).toContain("standardwebhooks");
  });
});
