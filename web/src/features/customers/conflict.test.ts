import { describe, expect, it } from "vitest";
import { mergedInput } from "./conflict";
import { EMPTY_DRAFT, inputFrom } from "./fields";

describe("mergedInput", () => {
  it("takes the teammate's value only where the user chose theirs", () => {
    const mine = inputFrom({ ...EMPTY_DRAFT, name: "Sipho M. Dlamini", city: "Paarl", email: "s@x.co.za" });
    const conflict = {
      version: 9,
      fields: [
        { field: "city", theirs: "Stellenbosch" },
        { field: "name", theirs: "Sipho Dlamini" },
        { field: "idType", theirs: "passport_number" },
      ],
    };
    const merged = mergedInput(mine, conflict, { city: "theirs", name: "yours", idType: "theirs" });
    expect(merged.city).toBe("Stellenbosch");
    expect(merged.name).toBe("Sipho M. Dlamini");
    expect(merged.idType).toBe("passport_number");
    expect(merged.email).toBe("s@x.co.za");
  });
});
