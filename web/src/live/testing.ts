import type { Customer } from "../protocol/wire";

export function sampleCustomer(overrides: Partial<Customer> = {}): Customer {
  return {
    id: "cus_1",
    mode: "test",
    name: "Thandi Nkosi",
    email: "thandi@example.co.za",
    cellphone: "+27821234567",
    idType: "south_african_id",
    idNumber: "8801235111088",
    addressLine1: "12 Long Street",
    addressLine2: "",
    city: "Cape Town",
    postalCode: "8001",
    reference: "CUST-001",
    archived: false,
    createdAt: 1795000000000,
    updatedAt: 1795000000500,
    ...overrides,
  };
}
