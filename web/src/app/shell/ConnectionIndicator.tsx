import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { connectionAtom } from "../../live/atoms";

export function ConnectionIndicator() {
  const { t } = useTranslation();
  const state = useAtomValue(connectionAtom);
  const label = t(`header.connection.${state}`);
  return (
    <span className={`connection connection-${state}`} data-testid="connection-state" data-state={state} title={t("header.connectionHint", { state: label })}>
      <span className="connection-dot" aria-hidden="true" />
      <span className="connection-label">{label}</span>
    </span>
  );
}
