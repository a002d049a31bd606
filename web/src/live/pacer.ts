// When a read that follows live changes asks the server again. The first change after a quiet
// spell asks at once (a teammate's change shows in one round trip); changes while an answer is
// on its way, or within `gapMs` of the last ask, are folded into one more ask when both have
// passed. A burst (a test-clock month, an import) costs at most one request per gap.
export type Pacer = {
  /** Something the read follows changed. */
  changed: () => void;
  /** Stop: nothing planned runs any more. */
  stop: () => void;
};

export function pacer(ask: () => Promise<unknown>, gapMs: number, now: () => number = Date.now): Pacer {
  let lastAsk: number | undefined;
  let inFlight = false;
  let pending = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const fire = () => {
    timer = undefined;
    if (stopped) return;
    pending = false;
    inFlight = true;
    lastAsk = now();
    ask().finally(() => {
      inFlight = false;
      if (pending) plan();
    });
  };

  const plan = () => {
    if (stopped || inFlight || timer !== undefined) return;
    const wait = lastAsk === undefined ? 0 : Math.max(0, lastAsk + gapMs - now());
    if (wait === 0) fire();
    else timer = setTimeout(fire, wait);
  };

  return {
    changed: () => {
      pending = true;
      plan();
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
