// An error is read with what it is about: the whole field (label, input, message) or the whole
// fieldset is brought into view, not the message alone at the top edge of a scrolled dialog.
const ERROR_WITH_ITS_FIELD = ".field-invalid, fieldset[aria-invalid='true'], .alert-error";

/** Scrolls the first error inside `container` into view with its field, and puts the cursor there. */
export function revealFirstError(container: HTMLElement | null): void {
  const first = container?.querySelector<HTMLElement>(ERROR_WITH_ITS_FIELD);
  if (!first) return;
  // Centred, so what stands around it (a dialog's title, the field's neighbours) shows too.
  first.scrollIntoView({ block: "center" });
  first.querySelector<HTMLElement>("input:not(:disabled), select:not(:disabled), textarea:not(:disabled)")?.focus({ preventScroll: true });
}
