import { routeAt, type Screen } from "../../app/routes";

/**
 * The pages a member's tabs show, as screens (named like the menu names them), each once and in
 * tab order. A path the app has no page for is left out rather than shown raw.
 */
export function viewedScreens(viewing: readonly string[] | undefined): Screen[] {
  const screens = (viewing ?? []).flatMap((path) => routeAt(path)?.screen ?? []);
  return [...new Set(screens)];
}
