import { createStore } from "jotai";
import { describe, expect, it } from "vitest";
import { applyChanges, dropCache, importAtom, importUpsertsAtom, topicVersionsAtom, putImports } from "./cache";
import { commitProgress, laterImport } from "./importProgress";
import { sampleImport } from "./testing";

describe("import progress", () => {
  it("moves forward with each delta", () => {
    const store = createStore();
    applyChanges(store, [{ t: "ImportUpserted", import: sampleImport({ id: "imp_a", committed: 2 }) }]);
    applyChanges(store, [{ t: "ImportUpserted", import: sampleImport({ id: "imp_a", committed: 7, failed: 1 }) }]);
    expect(store.get(importAtom("imp_a"))).toMatchObject({ committed: 7, failed: 1 });
    expect(store.get(importUpsertsAtom).ids).toEqual(["imp_a"]);
  });

  it("does not fall back to an older snapshot a late reply carries", () => {
    const store = createStore();
    applyChanges(store, [{ t: "ImportUpserted", import: sampleImport({ id: "imp_b", committed: 8 }) }]);
    putImports(store, [sampleImport({ id: "imp_b", committed: 3 })]);
    expect(store.get(importAtom("imp_b"))?.committed).toBe(8);
    const done = sampleImport({ id: "imp_b", committed: 10, status: "completed", finishedAt: 1795000009000 });
    applyChanges(store, [{ t: "ImportUpserted", import: done }]);
    putImports(store, [sampleImport({ id: "imp_b", committed: 9 })]);
    expect(store.get(importAtom("imp_b"))).toEqual(done);
  });

  it("takes a newer reply over the delta before it", () => {
    expect(laterImport(sampleImport({ committed: 4 }), sampleImport({ committed: 6 })).committed).toBe(6);
    expect(laterImport(undefined, sampleImport({ committed: 1 })).committed).toBe(1);
  });

  it("measures written and failed rows against the valid ones", () => {
    expect(commitProgress(sampleImport({ committed: 4, failed: 1, valid: 10 }))).toBe(0.5);
    expect(commitProgress(sampleImport({ committed: 4, failed: 1, skipped: 5, valid: 10 }))).toBe(1);
    expect(commitProgress(sampleImport({ committed: 0, valid: 0 }))).toBe(1);
    expect(commitProgress(sampleImport({ committed: 3, valid: 10, status: "completed" }))).toBe(1);
  });

  it("is forgotten with the rest of the merchant's data", () => {
    const store = createStore();
    applyChanges(store, [{ t: "ImportUpserted", import: sampleImport({ id: "imp_c" }) }]);
    const before = store.get(topicVersionsAtom).import;
    dropCache(store);
    expect(store.get(importAtom("imp_c"))).toBeUndefined();
    expect(store.get(topicVersionsAtom).import).toBe(before + 1);
  });
});
