import { describe, expect, it } from "vitest";
import { placeError, withFound, withoutEdited } from "./fieldErrors";

const FIELDS = ["newEmail", "currentPassword"] as const;

describe("placeError", () => {
  it("shows nothing without an error", () => {
    expect(placeError(null, FIELDS)).toEqual({ fields: {}, general: null });
  });

  it("puts named field errors beside their fields, first one wins, unknown fields dropped", () => {
    const error = {
      code: "invalid_input" as const,
      fields: [
        { field: "newEmail", code: "invalid_email" as const },
        { field: "newEmail", code: "required" as const },
        { field: "somethingElse", code: "required" as const },
        { field: "current_password", code: "required" as const },
      ],
    };
    expect(placeError(error, FIELDS)).toEqual({
      fields: { newEmail: "invalid_email", currentPassword: "required" },
      general: null,
    });
  });

  it("places a bare code by what it is about, else on the whole form", () => {
    expect(placeError({ code: "wrong_password" }, FIELDS, { wrong_password: "currentPassword" })).toEqual({
      fields: { currentPassword: "wrong_password" },
      general: null,
    });
    expect(placeError({ code: "rate_limited" }, FIELDS, { wrong_password: "currentPassword" })).toEqual({
      fields: {},
      general: "rate_limited",
    });
  });
});

describe("withoutEdited", () => {
  const placed = { fields: { newEmail: "email_taken", currentPassword: "wrong_password" } as const, general: null };

  it("drops the errors of the fields changed since, keeps the rest", () => {
    expect(withoutEdited(placed, ["currentPassword"])).toEqual({ fields: { newEmail: "email_taken" }, general: null });
  });

  it("keeps everything when nothing was changed", () => {
    expect(withoutEdited(placed, [])).toBe(placed);
  });
});

describe("withFound", () => {
  const placed = { fields: { newEmail: "email_taken" }, general: null } as const;

  it("shows the form's own findings with the server's, the form's where both name a field", () => {
    expect(withFound(placed, { currentPassword: "required" })).toEqual({
      fields: { newEmail: "email_taken", currentPassword: "required" },
      general: null,
    });
    expect(withFound(placed, { newEmail: "required" }).fields).toEqual({ newEmail: "required" });
  });

  it("keeps the server's answer as it is when the form found nothing", () => {
    expect(withFound(placed, {})).toBe(placed);
  });

  it("loses a finding once its field is edited, with the server's error beside it", () => {
    const shown = withoutEdited(withFound(placed, { newEmail: "required", currentPassword: "required" }), ["newEmail"]);
    expect(shown).toEqual({ fields: { currentPassword: "required" }, general: null });
  });
});
