import type { Customer, CustomerInput, FieldError, IdType } from "../../protocol/wire";

export type CustomerField = Exclude<keyof CustomerInput, "idType"> | "idType";

export const ID_TYPES: IdType[] = ["south_african_id", "passport_number", "temporary_residence", "company_registration_number"];

export type CustomerDraft = Record<CustomerField, string>;

export const EMPTY_DRAFT: CustomerDraft = {
  name: "",
  email: "",
  cellphone: "",
  idType: "",
  idNumber: "",
  addressLine1: "",
  addressLine2: "",
  city: "",
  postalCode: "",
  reference: "",
};

export function draftFrom(customer: Customer): CustomerDraft {
  return {
    name: customer.name,
    email: customer.email,
    cellphone: customer.cellphone,
    idType: customer.idType ?? "",
    idNumber: customer.idNumber,
    addressLine1: customer.addressLine1,
    addressLine2: customer.addressLine2,
    city: customer.city,
    postalCode: customer.postalCode,
    reference: customer.reference,
  };
}

export function inputFrom(draft: CustomerDraft): CustomerInput {
  const idType = ID_TYPES.find((type) => type === draft.idType);
  return {
    name: draft.name.trim(),
    email: draft.email.trim(),
    cellphone: draft.cellphone.trim(),
    idType,
    idNumber: draft.idNumber.trim(),
    addressLine1: draft.addressLine1.trim(),
    addressLine2: draft.addressLine2.trim(),
    city: draft.city.trim(),
    postalCode: draft.postalCode.trim(),
    reference: draft.reference.trim(),
  };
}

// The server names fields as the wire does (camelCase); accept snake_case too.
function fieldKey(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, char: string) => char.toUpperCase());
}

export function errorsByField(fields: FieldError[] | undefined): Partial<Record<CustomerField, FieldError["code"]>> {
  const out: Partial<Record<CustomerField, FieldError["code"]>> = {};
  for (const error of fields ?? []) {
    const key = fieldKey(error.field) as CustomerField;
    if (key in EMPTY_DRAFT && !out[key]) out[key] = error.code;
  }
  return out;
}
