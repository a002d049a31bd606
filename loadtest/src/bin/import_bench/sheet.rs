//! A Registered Mandate recurring file as a merchant would export it: every
//! row valid, amounts and codes as numeric cells, start dates as native date
//! cells, and a few thousand customers each owning several rows.

use rust_xlsxwriter::{ExcelDateTime, Format, Workbook, XlsxError};

/// Distinct customer references: each customer owns rows / CUSTOMERS rows.
const CUSTOMERS: usize = 4_000;

const HEADERS: [&str; 29] = [
    "Customer reference*",
    "Person name*",
    "Person surname*",
    "ID Type",
    "Client Type",
    "ID Number",
    "Email*",
    "Contact number",
    "Billing address line 1",
    "Town/City",
    "Postal code",
    "Bank account holder name*",
    "Bank account number*",
    "Bank account type*",
    "Bank name*",
    "Bank branch code*",
    "Amount*",
    "Collection start date*",
    "Collection end date",
    "Interval*",
    "Day to process*",
    "Type of payment*",
    "Contract reference*",
    "Allow payment tracking",
    "Max payment tracking days",
    "Maximum collection amount*",
    "Allow date adjustment",
    "Is collection amount variable",
    "Adjustment category",
];

const NAMES: [&str; 6] = ["Thandi", "Pieter", "Ayanda", "Lerato", "Johan", "Zanele"];
const SURNAMES: [&str; 6] = ["Nkosi", "van Wyk", "Dlamini", "Botha", "Mokoena", "O'Neill"];
/// Valid South African ID numbers (DOMAIN.md).
const ID_NUMBERS: [&str; 3] = ["8801235111088", "9506245120008", "8001015009087"];
/// `(bank, universal branch code)`.
const BANKS: [(&str, f64); 4] = [
    ("FNB", 250_655.0),
    ("Standard Bank", 51_001.0),
    ("Capitec", 470_010.0),
    ("Absa", 632_005.0),
];
const TOWNS: [(&str, f64); 3] = [
    ("Cape Town", 8001.0),
    ("Pretoria", 181.0),
    ("Durban", 4001.0),
];

/// The file, collecting from March of `start_year` on.
pub fn registered_mandate_recurring(rows: usize, start_year: i32) -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    let date = Format::new().set_num_format("yyyy-mm-dd");
    let start = ExcelDateTime::from_ymd(u16::try_from(start_year).unwrap_or(2030), 3, 1)?;
    let end = format!("{}-02-28", start_year + 3);
    for (col, header) in HEADERS.iter().enumerate() {
        sheet.write_string(0, col as u16, *header)?;
    }
    for i in 0..rows {
        let r = (i + 1) as u32;
        let customer = i % CUSTOMERS;
        let (name, surname) = (NAMES[customer % 6], SURNAMES[customer / 6 % 6]);
        let (bank, branch) = BANKS[customer % 4];
        let (town, postal) = TOWNS[customer % 3];
        let cents = 15_000 + (i % 500) as i64 * 100 + 50;
        let tracking = i % 2 == 0;
        let text = [
            (0, format!("CUST-{customer:05}")),
            (1, name.to_string()),
            (2, surname.to_string()),
            (3, "South African ID".to_string()),
            (4, "Resident Individual".to_string()),
            (5, ID_NUMBERS[customer % 3].to_string()),
            (6, format!("customer{customer}@example.co.za")),
            (
                7,
                format!("+27 82 {:03} {:04}", customer % 1000, i % 10_000),
            ),
            (8, format!("{} Long Street", customer % 200 + 1)),
            (9, town.to_string()),
            (11, format!("{name} {surname}")),
            // Ten digits: every bank above numbers its accounts so.
            (12, format!("{}", 1_200_000_000_u64 + customer as u64)),
            (13, "Current".to_string()),
            (14, bank.to_string()),
            (18, end.clone()),
            (19, "Monthly".to_string()),
            (21, "Insurance Premium".to_string()),
            (22, format!("RM{i:08}")),
            (23, if tracking { "yes" } else { "no" }.to_string()),
            (26, "no".to_string()),
            (27, "No".to_string()),
            (28, "Never".to_string()),
        ];
        for (col, value) in &text {
            sheet.write_string(r, *col, value)?;
        }
        sheet.write_number(r, 10, postal)?;
        sheet.write_number(r, 15, branch)?;
        sheet.write_number(r, 16, cents as f64 / 100.0)?;
        sheet.write_datetime_with_format(r, 17, &start, &date)?;
        sheet.write_number(r, 20, (i % 28 + 1) as f64)?;
        if tracking {
            sheet.write_number(r, 24, 3.0)?;
        }
        sheet.write_number(r, 25, (cents * 2) as f64 / 100.0)?;
    }
    book.save_to_buffer()
}
