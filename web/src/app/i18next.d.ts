import "i18next";
import type en from "../../../locales/en.json";

// Translation keys are typed from the English file: a missing key fails the build.
declare module "i18next" {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface CustomTypeOptions {
    defaultNS: "translation";
    resources: { translation: typeof en };
  }
}
