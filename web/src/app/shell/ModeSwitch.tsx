import { useAtomValue } from "jotai";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Switch } from "../../components/Switch";
import { identityAtom, placeAtom } from "../../live/atoms";
import { useSwitchPlace } from "./useSwitchPlace";

/** Live or test data, one click away in the header, as the well-known gateways do it. */
export function ModeSwitch() {
  const { t } = useTranslation();
  const identity = useAtomValue(identityAtom);
  // Where the tab is going: a switch shows at once, before the server's Welcome.
  const place = useAtomValue(placeAtom);
  const labelId = useId();
  const switchId = useId();
  const switchPlace = useSwitchPlace();
  if (!identity) return null;
  const test = (place.mode ?? identity.mode) === "test";
  return (
    <div className={test ? "mode-switch mode-switch-test" : "mode-switch"}>
      {/* A real label: a click on the words turns the switch, as on any form control. */}
      <label id={labelId} htmlFor={switchId} className="mode-switch-label">
        {t("testClock.switchLabel")}
      </label>
      <Switch
        checked={test}
        id={switchId}
        labelledBy={labelId}
        onChange={(on) => switchPlace({ merchantId: place.merchantId, mode: on ? "test" : "live" })}
        testId="mode-switch"
      />
    </div>
  );
}
