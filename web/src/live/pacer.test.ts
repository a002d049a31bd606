import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pacer } from "./pacer";

describe("pacer", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function asker() {
    const answers: (() => void)[] = [];
    const ask = vi.fn(() => new Promise<void>((done) => answers.push(done)));
    const answer = async () => {
      answers.shift()?.();
      await Promise.resolve();
      await Promise.resolve();
    };
    return { ask, answer };
  }

  it("asks at once for the first change after a quiet spell", () => {
    const { ask } = asker();
    pacer(ask, 250).changed();
    expect(ask).toHaveBeenCalledTimes(1);
  });

  it("folds a burst into one more ask after the answer and the gap", async () => {
    const { ask, answer } = asker();
    const pace = pacer(ask, 250);
    for (let i = 0; i < 100; i += 1) pace.changed();
    expect(ask).toHaveBeenCalledTimes(1);
    await answer();
    expect(ask).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(250);
    expect(ask).toHaveBeenCalledTimes(2);
    await answer();
    vi.advanceTimersByTime(1000);
    expect(ask).toHaveBeenCalledTimes(2);
  });

  it("a burst over ten seconds costs at most one ask per gap", async () => {
    const { ask, answer } = asker();
    const pace = pacer(ask, 250);
    for (let ms = 0; ms < 10_000; ms += 10) {
      pace.changed();
      await answer();
      vi.advanceTimersByTime(10);
    }
    expect(ask.mock.calls.length).toBeLessThanOrEqual(41);
    expect(ask.mock.calls.length).toBeGreaterThanOrEqual(39);
  });

  it("asks at once for a change after a quiet spell, though the last burst's ask was a moment ago", async () => {
    const { ask, answer } = asker();
    const pace = pacer(ask, 250);
    // One change that comes as two deltas, 5 ms apart: the second is folded into an ask 250 ms on.
    pace.changed();
    vi.advanceTimersByTime(5);
    pace.changed();
    await answer();
    vi.advanceTimersByTime(245);
    expect(ask).toHaveBeenCalledTimes(2);
    await answer();
    // The next change, 300 ms after the last one but only 55 ms after that ask, asks at once.
    vi.advanceTimersByTime(55);
    pace.changed();
    expect(ask).toHaveBeenCalledTimes(3);
  });

  it("runs nothing planned once stopped", async () => {
    const { ask, answer } = asker();
    const pace = pacer(ask, 250);
    pace.changed();
    pace.changed();
    await answer();
    pace.stop();
    vi.advanceTimersByTime(1000);
    expect(ask).toHaveBeenCalledTimes(1);
  });
});
