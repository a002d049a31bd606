import { atom, type PrimitiveAtom } from "jotai";

// A keyed set of atoms that keeps one atom per key for the life of the app.
// Small on purpose: jotai's own atomFamily is deprecated upstream.
export type AtomFamily<T> = {
  (key: string): PrimitiveAtom<T>;
  keys: () => string[];
};

export function atomFamily<T>(initial: T): AtomFamily<T> {
  const atoms = new Map<string, PrimitiveAtom<T>>();
  const get = (key: string) => {
    let existing = atoms.get(key);
    if (!existing) {
      existing = atom(initial);
      atoms.set(key, existing);
    }
    return existing;
  };
  return Object.assign(get, { keys: () => [...atoms.keys()] });
}
