import { useTranslation } from "react-i18next";
import { Badge } from "../../components/Badge";
import type { WebhookEndpoint } from "../../protocol/wire";

/** Enabled, paused by a person, or paused by us after its deliveries kept failing. */
export function EndpointState({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation();
  const state = endpoint.enabled ? "enabled" : endpoint.disabledReason ? "failing" : "paused";
  const tone = state === "enabled" ? "green" : state === "failing" ? "red" : "zinc";
  return (
    <span data-testid="webhook-state" data-state={state}>
      <Badge tone={tone}>{t(`developers.webhooks.state.${state}`)}</Badge>
    </span>
  );
}
