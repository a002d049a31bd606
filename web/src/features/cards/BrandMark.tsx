import { useTranslation } from "react-i18next";
import type { CardBrand } from "../../protocol/wire";

// Simplified marks drawn here (nothing fetched from a card scheme's site): each brand's
// colours and shape, enough to tell them apart at a glance in a table row.
function Mark({ brand }: { brand: CardBrand }) {
  switch (brand) {
    case "visa":
      return (
        <>
          <rect width="40" height="26" rx="4" fill="#1a1f71" />
          <text x="20" y="17.5" textAnchor="middle" fontFamily="Arial, Helvetica, sans-serif" fontSize="11" fontStyle="italic" fontWeight="700" fill="#ffffff">
            VISA
          </text>
        </>
      );
    case "mastercard":
      return (
        <>
          <rect width="40" height="26" rx="4" fill="#252525" />
          <circle cx="16" cy="13" r="7.5" fill="#eb001b" />
          <circle cx="24" cy="13" r="7.5" fill="#f79e1b" />
          <path d="M20 6.8a7.5 7.5 0 0 1 0 12.4a7.5 7.5 0 0 1 0-12.4z" fill="#ff5f00" />
        </>
      );
    case "amex":
      return (
        <>
          <rect width="40" height="26" rx="4" fill="#2e77bc" />
          <text x="20" y="16.5" textAnchor="middle" fontFamily="Arial, Helvetica, sans-serif" fontSize="8.5" fontWeight="700" fill="#ffffff">
            AMEX
          </text>
        </>
      );
    case "diners":
      return (
        <>
          <rect width="40" height="26" rx="4" fill="#ffffff" stroke="#d4d4d8" />
          <circle cx="20" cy="13" r="8" fill="none" stroke="#0079be" strokeWidth="2" />
          <path d="M17 8.5v9M23 8.5v9" stroke="#0079be" strokeWidth="1.6" />
        </>
      );
    case "other":
      return (
        <>
          <rect width="40" height="26" rx="4" fill="#71717a" />
          <rect x="5" y="6" width="8" height="6" rx="1.2" fill="#e4e4e7" />
          <rect x="5" y="17" width="30" height="2" rx="1" fill="#e4e4e7" />
        </>
      );
  }
}

/** A card brand's small image, named for screen readers. */
export function BrandMark({ brand }: { brand: CardBrand }) {
  const { t } = useTranslation();
  return (
    <svg className="brand-mark" viewBox="0 0 40 26" width="40" height="26" role="img" aria-label={t(`cards.brand.${brand}`)} data-testid="card-brand" data-brand={brand}>
      <Mark brand={brand} />
    </svg>
  );
}
