import { afterAll } from "vitest";
import { closeBrowser } from "./browser";

// Runs in every end-to-end file: its Chromium goes with it.
afterAll(closeBrowser);
