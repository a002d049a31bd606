import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { placeAtom } from "../live/atoms";
import { useAsk } from "../live/ask";
import { withoutPlaceParams, withPlaceParams, type Place } from "../live/place";
import type { RecordPlace } from "../protocol/wire";
import { Link } from "./placeLinks";

function useRecordPlace(recordId: string): RecordPlace | null {
  const ask = useAsk();
  const [found, setFound] = useState<{ recordId: string; place: RecordPlace } | null>(null);
  useEffect(() => {
    let current = true;
    ask({ t: "LocateRecord", recordId }).then(
      (body) => {
        if (current && body.t === "RecordLocation") setFound({ recordId, place: body.place });
      },
      // Not found anywhere the person may be told of: the page's own "not found" stands.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [ask, recordId]);
  return found?.recordId === recordId ? found.place : null;
}

function useWords(place: RecordPlace, here: Place): { where: string; open: string } {
  const { t } = useTranslation();
  const business = place.merchantName;
  if (place.merchantId === here.merchantId) {
    return { where: t(`place.elsewhere.inMode.${place.mode}`), open: t(`place.elsewhere.openMode.${place.mode}`) };
  }
  if (place.mode === here.mode) {
    return { where: t("place.elsewhere.inBusiness", { business }), open: t("place.elsewhere.openBusiness", { business }) };
  }
  return {
    where: t(`place.elsewhere.inBusinessMode.${place.mode}`, { business }),
    open: t(`place.elsewhere.openBusinessMode.${place.mode}`, { business }),
  };
}

/**
 * For a record page that found nothing here: when the record is in the other mode or in
 * another business of the person's, says which and links to it there (the same address in
 * that place). The server tells only of their own teams' records.
 */
export function RecordElsewhere({ recordId }: { recordId: string }) {
  const place = useRecordPlace(recordId);
  if (!place) return null;
  return <RecordPlaceLink place={place} />;
}

function RecordPlaceLink({ place }: { place: RecordPlace }) {
  const here = useAtomValue(placeAtom);
  const { pathname, search } = useLocation();
  const words = useWords(place, here);
  const there = withPlaceParams(withoutPlaceParams(new URLSearchParams(search)), { merchantId: place.merchantId, mode: place.mode });
  return (
    <div className="record-elsewhere" data-testid="record-elsewhere">
      <p className="empty-state-body">{words.where}</p>
      <Link to={`${pathname}?${there.toString()}`} className="btn btn-primary" data-testid="record-elsewhere-open">
        {words.open}
      </Link>
    </div>
  );
}
