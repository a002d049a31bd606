import type { BankAccount, BusinessInfo, Card, Customer, Import, Order, PayPage, Profile, Transaction } from "../protocol/wire";

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
    version: 42,
    ...overrides,
  };
}

export function sampleBusinessInfo(overrides: Partial<BusinessInfo> = {}): BusinessInfo {
  return {
    legalName: "Karoo Gym (Pty) Ltd",
    tradingName: "Karoo Gym",
    registrationNumber: "2019/123456/07",
    vatNumber: "4123456789",
    industry: "Fitness",
    physicalAddress: "1 Church Street, Graaff-Reinet, 6280",
    contactPerson: "Thandi Nkosi",
    supportEmail: "help@karoogym.co.za",
    supportPhone: "+27491234567",
    statementName: "KAROOGYM",
    version: 3,
    ...overrides,
  };
}

export function sampleProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    user: { id: "usr_1", name: "Thandi", email: "t@example.co.za" },
    emailVerified: true,
    language: "en",
    twoFactorEnabled: false,
    backupCodesLeft: 0,
    twoFactorRequired: false,
    ...overrides,
  };
}

export function sampleBankAccount(overrides: Partial<BankAccount> = {}): BankAccount {
  return {
    id: "bac_1",
    customerId: "cus_1",
    bank: "capitec",
    branchCode: "470010",
    accountType: "savings",
    holderName: "T Nkosi",
    accountNumber: "1234567890",
    createdAt: 1795000000000,
    ...overrides,
  };
}

/** A transaction for tests: a first DebiCheck debit of R 499,99, paid. */
export function sampleTransaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    id: "txn_1",
    mode: "test",
    paymentId: "pay_1",
    paymentKind: "recurring",
    mandateId: "man_1",
    customerId: "cus_1",
    customerName: "Thandi Nkosi",
    method: "debicheck",
    bank: "capitec",
    accountLastDigits: "6789",
    reference: "GYM-0001",
    amountCents: 49999,
    actionDate: "2026-03-02",
    status: "paid",
    attempt: 1,
    history: [
      { status: "pending", date: "2026-02-27" },
      { status: "sent_to_bank", date: "2026-03-02" },
      { status: "paid", date: "2026-03-03" },
    ],
    feeCents: 900,
    netCents: 49099,
    createdAt: 1795000000000,
    updatedAt: 1795000000500,
    ...overrides,
  };
}

/** An import for tests: 10 valid EFT rows of 12, half written. */
export function sampleImport(overrides: Partial<Import> = {}): Import {
  return {
    id: "imp_1",
    mode: "test",
    kind: "once",
    template: "eft_debit_order",
    fileName: "june.csv",
    status: "committing",
    rows: 12,
    valid: 10,
    invalid: 2,
    committed: 5,
    failed: 0,
    skipped: 0,
    includeDuplicates: false,
    createdByName: "Thandi Nkosi",
    createdAt: 1795000000000,
    ...overrides,
  };
}

export function samplePayPage(overrides: Partial<PayPage> = {}): PayPage {
  return {
    id: "pg_1",
    mode: "test",
    title: "Karoo Gym day pass",
    description: "One day in the gym",
    amountMode: "fixed",
    amountCents: 15000,
    kind: "once",
    methods: ["card", "instant_eft"],
    uses: 0,
    reference: "DAYPASS",
    colour: "#0f766e",
    active: true,
    createdAt: 1795000000000,
    updatedAt: 1795000000000,
    version: 7,
    ...overrides,
  };
}

export function sampleOrder(overrides: Partial<Order> = {}): Order {
  return {
    id: "ord_1",
    mode: "test",
    pageId: "pg_1",
    items: [{ description: "Day pass", quantity: 1, unitCents: 15000 }],
    amountCents: 15000,
    payerName: "Sipho Dlamini",
    payerEmail: "sipho@example.co.za",
    method: "card",
    status: "pending",
    reference: "DAYPASS",
    refundedCents: 0,
    feeCents: 643,
    netCents: 14357,
    refunds: [],
    createdAt: 1795000000000,
    updatedAt: 1795000000000,
    ...overrides,
  };
}

export function sampleCard(overrides: Partial<Card> = {}): Card {
  return {
    id: "card_1",
    mode: "test",
    customerId: "cus_1",
    customerName: "Thandi Nkosi",
    brand: "visa",
    lastFour: "4242",
    expiryMonth: 8,
    expiryYear: 2031,
    createdAt: 1795000000000,
    ...overrides,
  };
}
