/** One filled-in field of a form, as its label and its value read. */
export type DraftField = { label: string; value: string };

export type DraftWords = { yes: string; no: string };

/** A form's draft as plain text, one "Label: value" line per filled-in field, to copy elsewhere. */
export function draftText(fields: DraftField[]): string {
  return fields
    .filter((field) => field.value.trim() !== "")
    .map((field) => (field.label ? `${field.label}: ${field.value}` : field.value))
    .join("\n");
}

// Nothing secret or unreadable goes into a draft to copy; a colour picker's value is also typed
// in the text field beside it.
const SKIPPED = new Set(["hidden", "file", "password", "submit", "button", "reset", "image", "color"]);

function text(element: Element | null | undefined): string {
  return element?.textContent?.replace(/\s+/g, " ").trim() ?? "";
}

function labelOf(control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): string {
  const labelled = control.getAttribute("aria-labelledby");
  if (labelled) {
    return labelled
      .split(/\s+/)
      .map((id) => text(control.ownerDocument.getElementById(id)))
      .join(" ");
  }
  return text(control.labels?.[0]) || control.getAttribute("aria-label") || control.name;
}

// A radio's question is its group's label; its answer is its own.
function groupLabelOf(radio: HTMLInputElement): string {
  const group = radio.closest("[role=radiogroup], fieldset");
  if (!group) return radio.name;
  const legend = group.querySelector(":scope > legend");
  return text(legend) || group.getAttribute("aria-label") || radio.name;
}

/** The filled-in fields of a form as they stand, in the order the form shows them. */
export function readDraft(root: HTMLElement, words: DraftWords): DraftField[] {
  const fields: DraftField[] = [];
  for (const control of root.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>("input, select, textarea")) {
    if (control instanceof HTMLSelectElement) {
      fields.push({ label: labelOf(control), value: [...control.selectedOptions].map((option) => text(option)).join(", ") });
    } else if (control instanceof HTMLTextAreaElement) {
      fields.push({ label: labelOf(control), value: control.value });
    } else if (SKIPPED.has(control.type)) {
      continue;
    } else if (control.type === "radio") {
      if (control.checked) fields.push({ label: groupLabelOf(control), value: labelOf(control) });
    } else if (control.type === "checkbox") {
      fields.push({ label: labelOf(control), value: control.checked ? words.yes : words.no });
    } else {
      fields.push({ label: labelOf(control), value: control.value });
    }
  }
  return fields;
}
