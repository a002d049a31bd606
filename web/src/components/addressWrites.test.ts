import { describe, expect, it } from "vitest";
import { AddressWrites } from "./addressWrites";

const params = (text: string) => new URLSearchParams(text);

describe("AddressWrites", () => {
  it("builds a second quick change on the first, not on the address still showing", () => {
    const writes = new AddressWrites(params(""));
    writes.wrote(params("status=paid"));
    writes.wrote(params("status=paid&q=thandi"));
    // The first change lands while the second is on its way.
    writes.landed("status=paid");
    expect(writes.base().toString()).toBe("status=paid&q=thandi");
    writes.landed("status=paid&q=thandi");
    expect(writes.base().toString()).toBe("status=paid&q=thandi");
  });

  it("takes an address it did not write as it is and forgets what was on its way", () => {
    const writes = new AddressWrites(params("q=a"));
    writes.wrote(params("q=ab"));
    writes.landed("status=failed");
    expect(writes.base().toString()).toBe("status=failed");
    // The forgotten write landing late is someone else's address now.
    writes.landed("q=ab");
    expect(writes.base().toString()).toBe("q=ab");
  });

  it("starts from the address it was made with", () => {
    expect(new AddressWrites(params("method=card")).base().toString()).toBe("method=card");
  });
});
