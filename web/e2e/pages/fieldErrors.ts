import type { Locator } from "playwright-core";

/** Each field in `form` that shows an error, named by its input's test id, with the error's text, in the form's order. */
export async function shownErrors(form: Locator): Promise<[string, string][]> {
  return form
    .locator(".field-invalid")
    .evaluateAll((fields) =>
      fields.map((field): [string, string] => [
        field.querySelector("[data-testid]")?.getAttribute("data-testid") ?? "",
        field.querySelector(":scope > .field-error")?.textContent ?? "",
      ]),
    );
}

/** Whether the focus is on `field`. */
export function isFocused(field: Locator): Promise<boolean> {
  return field.evaluate((element) => element === document.activeElement);
}
