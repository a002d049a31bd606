import { useAtomValue } from "jotai";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Switch } from "../../components/Switch";
import { identityAtom } from "../../live/atoms";
import { liveClient } from "../liveClient";

/** Live or test data, one click away in the header, as the well-known gateways do it. */
export function ModeSwitch() {
  const { t } = useTranslation();
  const identity = useAtomValue(identityAtom);
  const labelId = useId();
  if (!identity) return null;
  const test = identity.mode === "test";
  return (
    <div className={test ? "mode-switch mode-switch-test" : "mode-switch"}>
      <span id={labelId} className="mode-switch-label">
        {t("testClock.switchLabel")}
      </span>
      <Switch
        checked={test}
        labelledBy={labelId}
        onChange={(on) => liveClient.switchTo({ merchantId: identity.merchant.id, mode: on ? "test" : "live" })}
        testId="mode-switch"
      />
    </div>
  );
}
