import { describe, expect, it } from "vitest";
import { draftText } from "./draft";

describe("draftText", () => {
  it("writes one line per filled-in field and leaves out the empty ones", () => {
    const text = draftText([
      { label: "Title", value: "Gym membership" },
      { label: "Description", value: "  " },
      { label: "Amount", value: "350.00" },
      { label: "", value: "Monthly" },
    ]);
    expect(text).toBe("Title: Gym membership\nAmount: 350.00\nMonthly");
  });

  it("is empty when nothing was filled in", () => {
    expect(draftText([{ label: "Title", value: "" }])).toBe("");
  });
});
