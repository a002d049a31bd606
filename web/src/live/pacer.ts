// When a read that follows live changes asks the server again. A change after a quiet spell (no
// change for `gapMs`) asks at once, so a teammate's change shows in one round trip even when the
// last burst's trailing ask was a moment ago; changes close together (a test-clock month, an
// import) are folded: while an answer is on its way, or within `gapMs` of the last ask, they
// make one more ask when both have passed. A burst costs at most one request per gap, and
// isolated changes are at least a gap apart, so requests stay bounded either way.
export type Pacer = {
  /** Something the read follows changed. */
  changed: () => void;
  /** Stop: nothing planned runs any more. */
  stop: () => void;
};

export function pacer(ask: () => Promise<unknown>, gapMs: number, now: () => number = Date.now): Pacer {
  let lastAsk: number | undefined;
  let lastChange: number | undefined;
  let inFlight = false;
  let pending = false;
  // The pending change came after a quiet spell: it does not wait for the gap.
  let urgent = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const fire = () => {
    clearTimeout(timer);
    timer = undefined;
    if (stopped) return;
    pending = false;
    urgent = false;
    inFlight = true;
    lastAsk = now();
    ask().finally(() => {
      inFlight = false;
      if (pending) plan();
    });
  };

  const plan = () => {
    if (stopped || inFlight) return;
    const wait = lastAsk === undefined || urgent ? 0 : Math.max(0, lastAsk + gapMs - now());
    if (wait === 0) fire();
    else if (timer === undefined) timer = setTimeout(fire, wait);
  };

  return {
    changed: () => {
      const at = now();
      if (lastChange === undefined || at - lastChange >= gapMs) urgent = true;
      lastChange = at;
      pending = true;
      plan();
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
