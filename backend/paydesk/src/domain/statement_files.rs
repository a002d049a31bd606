//! A statement as files: CSV and xlsx, in English or Afrikaans. Every text
//! cell goes through `downloads` (a payer's name or reference that starts
//! like a formula stays text); amounts are rand with a point.

use protocol::{Language, PaymentMethod, Statement};
use rust_xlsxwriter::{Format, Workbook, XlsxError};

use super::downloads::{TextCells, csv_cell};
use crate::error::{AppError, AppResult};

/// The summary's rows: (label, amount in cents), opening to closing.
pub fn summary_rows(statement: &Statement, language: Language) -> Vec<(String, i64)> {
    let words = Words::of(language);
    let mut rows = vec![(words.opening.to_string(), statement.opening_balance_cents)];
    for total in &statement.collected {
        rows.push((
            format!(
                "{} ({}, {})",
                words.collected,
                method_label(total.method, language),
                total.count
            ),
            total.amount_cents,
        ));
    }
    for (label, cents) in [
        (words.fees, statement.fees_cents),
        (words.fee_returns, statement.fee_returns_cents),
        (words.refunds, statement.refunds_cents),
        (words.reversals, statement.reversals_cents),
        (words.disputes, statement.disputes_cents),
    ] {
        rows.push((label.to_string(), cents));
    }
    for total in statement.payouts.iter().chain(&statement.other) {
        rows.push((kind_label(&total.kind, language), total.amount_cents));
    }
    rows.push((words.closing.to_string(), statement.closing_balance_cents));
    rows
}

pub fn csv(statement: &Statement, language: Language) -> AppResult<Vec<u8>> {
    let words = Words::of(language);
    let fail = |e: csv::Error| AppError::Internal(format!("statement csv: {e}"));
    // The summary and the entries have different columns.
    let mut out = csv::WriterBuilder::new()
        .flexible(true)
        .from_writer(Vec::new());
    out.write_record([words.title, statement.from.as_str(), statement.to.as_str()])
        .map_err(fail)?;
    for (label, cents) in summary_rows(statement, language) {
        out.write_record([csv_cell(&label).as_ref(), rands(cents).as_str()])
            .map_err(fail)?;
    }
    out.write_record([""]).map_err(fail)?;
    out.write_record(words.columns).map_err(fail)?;
    for line in &statement.lines {
        out.write_record([
            line.date.as_str(),
            &kind_label(&line.kind, language),
            line.method.map_or("", |m| method_label(m, language)),
            &csv_cell(&line.name),
            &csv_cell(&line.reference),
            line.transaction_id.as_deref().unwrap_or(""),
            line.order_id.as_deref().unwrap_or(""),
            rands(line.amount_cents).as_str(),
        ])
        .map_err(fail)?;
    }
    out.into_inner()
        .map_err(|e| AppError::Internal(format!("statement csv: {e}")))
}

pub fn xlsx(statement: &Statement, language: Language) -> AppResult<Vec<u8>> {
    let words = Words::of(language);
    let build = || -> Result<Vec<u8>, XlsxError> {
        let mut book = Workbook::new();
        let titles = TextCells::new(Format::new().set_bold());
        let cells = TextCells::default();
        let money = Format::new().set_num_format("0.00");
        let summary = book.add_worksheet();
        summary.set_name(words.summary_sheet)?;
        titles.write(summary, 0, 0, words.title)?;
        cells.write(summary, 0, 1, &statement.from)?;
        cells.write(summary, 0, 2, &statement.to)?;
        for (at, (label, cents)) in summary_rows(statement, language).iter().enumerate() {
            let row = at as u32 + 2;
            cells.write(summary, row, 0, label)?;
            summary.write_number_with_format(row, 1, cents_as_rand(*cents), &money)?;
        }
        summary.set_column_width(0, 40)?;
        let entries = book.add_worksheet();
        entries.set_name(words.entries_sheet)?;
        for (col, title) in words.columns.iter().enumerate() {
            titles.write(entries, 0, col as u16, title)?;
        }
        for (at, line) in statement.lines.iter().enumerate() {
            let row = at as u32 + 1;
            cells.write(entries, row, 0, &line.date)?;
            cells.write(entries, row, 1, &kind_label(&line.kind, language))?;
            let method = line.method.map_or("", |m| method_label(m, language));
            cells.write(entries, row, 2, method)?;
            cells.write(entries, row, 3, &line.name)?;
            cells.write(entries, row, 4, &line.reference)?;
            cells.write(
                entries,
                row,
                5,
                line.transaction_id.as_deref().unwrap_or(""),
            )?;
            cells.write(entries, row, 6, line.order_id.as_deref().unwrap_or(""))?;
            entries.write_number_with_format(row, 7, cents_as_rand(line.amount_cents), &money)?;
        }
        entries.set_freeze_panes(1, 0)?;
        book.save_to_buffer()
    };
    build().map_err(|e| AppError::Internal(format!("statement xlsx: {e}")))
}

fn cents_as_rand(cents: i64) -> f64 {
    // Exact for any amount below 2^53 cents.
    cents as f64 / 100.0
}

/// Cents as rand with two decimals and a point, never a thousands separator.
pub fn rands(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let cents = cents.unsigned_abs();
    format!("{sign}{}.{:02}", cents / 100, cents % 100)
}

struct Words {
    title: &'static str,
    summary_sheet: &'static str,
    entries_sheet: &'static str,
    opening: &'static str,
    collected: &'static str,
    fees: &'static str,
    fee_returns: &'static str,
    refunds: &'static str,
    reversals: &'static str,
    disputes: &'static str,
    closing: &'static str,
    columns: [&'static str; 8],
}

impl Words {
    fn of(language: Language) -> Words {
        match language {
            Language::En => Words {
                title: "Statement",
                summary_sheet: "Summary",
                entries_sheet: "Entries",
                opening: "Opening balance",
                collected: "Collected",
                fees: "Fees",
                fee_returns: "Fees returned",
                refunds: "Refunds",
                reversals: "Reversals (late unpaids)",
                disputes: "Disputes",
                closing: "Closing balance",
                columns: [
                    "Date",
                    "Kind",
                    "Method",
                    "Name",
                    "Reference",
                    "Transaction",
                    "Order",
                    "Amount",
                ],
            },
            Language::Afr => Words {
                title: "State",
                summary_sheet: "Opsomming",
                entries_sheet: "Inskrywings",
                opening: "Beginsaldo",
                collected: "Ingevorder",
                fees: "Fooie",
                fee_returns: "Fooie teruggegee",
                refunds: "Terugbetalings",
                reversals: "Terugskrywings (laat onbetaaldes)",
                disputes: "Dispute",
                closing: "Eindsaldo",
                columns: [
                    "Datum",
                    "Soort",
                    "Metode",
                    "Naam",
                    "Verwysing",
                    "Transaksie",
                    "Bestelling",
                    "Bedrag",
                ],
            },
        }
    }
}

/// A ledger kind's name for people; a kind this build does not know keeps
/// its own name.
pub fn kind_label(kind: &str, language: Language) -> String {
    let afr = language == Language::Afr;
    let label = match (kind, afr) {
        ("collection", false) => "Collection",
        ("collection", true) => "Invordering",
        ("fee", false) => "Fee",
        ("fee", true) => "Fooi",
        ("fee_return", false) | ("refund_fee_return", false) => "Fee returned",
        ("fee_return", true) | ("refund_fee_return", true) => "Fooi teruggegee",
        ("refund", false) => "Refund",
        ("refund", true) => "Terugbetaling",
        ("late_unpaid", false) => "Reversal (late unpaid)",
        ("late_unpaid", true) => "Terugskrywing (laat onbetaal)",
        ("dispute", false) => "Dispute",
        ("dispute", true) => "Dispuut",
        ("payout", false) => "Payout",
        ("payout", true) => "Uitbetaling",
        ("payout_fee", false) => "Payout fee",
        ("payout_fee", true) => "Uitbetalingsfooi",
        ("payout_return", false) => "Payout returned",
        ("payout_return", true) => "Uitbetaling teruggekeer",
        (other, _) => other,
    };
    label.to_string()
}

pub fn method_label(method: PaymentMethod, language: Language) -> &'static str {
    use PaymentMethod as M;
    match (method, language) {
        (M::Debicheck, _) => "DebiCheck",
        (M::RegisteredMandate, Language::En) => "Registered mandate",
        (M::RegisteredMandate, Language::Afr) => "Geregistreerde mandaat",
        (M::EftDebitOrder, Language::En) => "EFT debit order",
        (M::EftDebitOrder, Language::Afr) => "EFT-debietorder",
        (M::Card, Language::En) => "Card",
        (M::Card, Language::Afr) => "Kaart",
        (M::InstantEft, Language::En) => "Instant EFT",
        (M::InstantEft, Language::Afr) => "Kitsige EFT",
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use protocol::StatementLine;

    use super::*;
    use crate::domain::statements::summarise;

    fn statement_with(name: &str, reference: &str) -> Statement {
        let totals = vec![
            (
                "collection".to_string(),
                Some(PaymentMethod::Card),
                1,
                15_000,
            ),
            ("fee".to_string(), Some(PaymentMethod::Card), 1, -643),
        ];
        let mut statement = summarise("2026-03-01".into(), "2026-03-31".into(), 1_000, &totals);
        statement.lines.push(StatementLine {
            id: "led_1".into(),
            date: "2026-03-02".into(),
            kind: "collection".into(),
            method: Some(PaymentMethod::Card),
            transaction_id: Some("txn_1".into()),
            order_id: None,
            name: name.into(),
            reference: reference.into(),
            amount_cents: 15_000,
        });
        statement
    }

    #[test]
    fn csv_keeps_a_formula_in_a_name_or_reference_as_text() {
        let statement = statement_with("=HYPERLINK(\"http://x\",\"y\")", "@SUM(A1)");
        let text = String::from_utf8(csv(&statement, Language::En).unwrap()).unwrap();
        assert!(
            text.contains("\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
            "{text}"
        );
        assert!(text.contains(",'@SUM(A1),"), "{text}");
        // Negative amounts stay numbers.
        assert!(text.contains("Fees,-6.43\n"), "{text}");
        assert!(text.contains("Closing balance,153.57\n"), "{text}");
    }

    #[test]
    fn xlsx_keeps_a_formula_in_a_name_as_text() {
        use std::io::Cursor;

        use calamine::{Data, Reader, Xlsx};
        let statement = statement_with("=1+1", "+27");
        let bytes = xlsx(&statement, Language::Afr).unwrap();
        let mut book: Xlsx<_> = calamine::open_workbook_from_rs(Cursor::new(bytes)).unwrap();
        let entries = book.worksheet_range("Inskrywings").unwrap();
        assert_eq!(entries.get((1, 3)), Some(&Data::String("=1+1".into())));
        assert_eq!(entries.get((1, 7)), Some(&Data::Float(150.0)));
        let formulas = book.worksheet_formula("Inskrywings").unwrap();
        assert!(formulas.used_cells().all(|(_, _, f)| f.is_empty()));
    }
}
