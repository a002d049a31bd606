import type { createStore } from "jotai";

export type Store = ReturnType<typeof createStore>;
