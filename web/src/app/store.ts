import { createStore } from "jotai";

// The one jotai store of the app: React reads it through the Provider, and the
// live socket writes it directly from outside React.
export const store = createStore();
