import { atom } from "jotai";

export type PendingSignIn = { email: string; password: string };

// The e-mail and password of a sign-in waiting for its second factor. Memory only:
// never in the URL or storage, gone on reload, cleared once signed in.
export const pendingSignInAtom = atom<PendingSignIn | null>(null);
