/** What the key's target is, as far as the shortcut cares. */
type KeyTarget = { tagName?: string; type?: string; isContentEditable?: boolean };

// Inputs that take no text: "/" pressed on them is no character typed.
const NOT_TEXT = new Set(["button", "checkbox", "color", "file", "image", "radio", "range", "reset", "submit"]);

/** Whether a key pressed on `target` is someone typing into a field. */
export function isTyping(eventTarget: EventTarget | KeyTarget | null): boolean {
  if (!eventTarget) return false;
  const target = eventTarget as KeyTarget;
  if (target.isContentEditable) return true;
  const tag = target.tagName?.toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  return tag === "INPUT" && !NOT_TEXT.has((target.type ?? "text").toLowerCase());
}

type Key = Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey" | "isComposing" | "defaultPrevented"> & { target: EventTarget | KeyTarget | null };

/** "/" or Ctrl/Cmd+K, as Stripe's dashboard: never while typing in another field. */
export function opensSearch(event: Key): boolean {
  if (event.defaultPrevented || event.isComposing) return false;
  const commandK = event.key.toLowerCase() === "k" && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
  const slash = event.key === "/" && !event.ctrlKey && !event.metaKey && !event.altKey;
  return (commandK || slash) && !isTyping(event.target);
}
