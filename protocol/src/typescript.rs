use ts_rs::{Config, TS};

use crate::*;

/// Renders every wire type as one TypeScript module, `web/src/protocol/wire.ts`.
/// A test compares it with the committed file, so the web app never drifts.
pub fn generate_typescript() -> String {
    let cfg = Config::default();
    let decls = [
        Mode::decl(&cfg),
        Language::decl(&cfg),
        Profile::decl(&cfg),
        SessionInfo::decl(&cfg),
        BusinessInfo::decl(&cfg),
        BankId::decl(&cfg),
        AccountType::decl(&cfg),
        BankAccountInput::decl(&cfg),
        BankAccount::decl(&cfg),
        Role::decl(&cfg),
        Section::decl(&cfg),
        Access::decl(&cfg),
        Permissions::decl(&cfg),
        UserView::decl(&cfg),
        MerchantView::decl(&cfg),
        RecordPlace::decl(&cfg),
        PresenceMember::decl(&cfg),
        IdType::decl(&cfg),
        CustomerInput::decl(&cfg),
        Customer::decl(&cfg),
        CustomerStatus::decl(&cfg),
        PaymentMethod::decl(&cfg),
        ClientType::decl(&cfg),
        Industry::decl(&cfg),
        AdjustmentCategory::decl(&cfg),
        AdjustmentType::decl(&cfg),
        ApprovalWindow::decl(&cfg),
        MandateStatus::decl(&cfg),
        BankAccountChoice::decl(&cfg),
        MandateInput::decl(&cfg),
        Mandate::decl(&cfg),
        MandateAction::decl(&cfg),
        MandateFilter::decl(&cfg),
        PaymentMethodSettings::decl(&cfg),
        PaymentKind::decl(&cfg),
        Interval::decl(&cfg),
        PaymentStatus::decl(&cfg),
        MandateChoice::decl(&cfg),
        PaymentInput::decl(&cfg),
        Payment::decl(&cfg),
        PaymentAction::decl(&cfg),
        TransactionStatus::decl(&cfg),
        TransactionStep::decl(&cfg),
        UnpaidFollowUpKind::decl(&cfg),
        UnpaidFollowUp::decl(&cfg),
        Transaction::decl(&cfg),
        UnpaidAction::decl(&cfg),
        SortOrder::decl(&cfg),
        PaymentFilter::decl(&cfg),
        TransactionFilter::decl(&cfg),
        UpcomingCollection::decl(&cfg),
        Dashboard::decl(&cfg),
        InsightBucket::decl(&cfg),
        MethodRatios::decl(&cfg),
        InsightPoint::decl(&cfg),
        UnpaidReason::decl(&cfg),
        ForecastDay::decl(&cfg),
        Insights::decl(&cfg),
        Balance::decl(&cfg),
        StatementFormat::decl(&cfg),
        StatementMethodTotal::decl(&cfg),
        StatementKindTotal::decl(&cfg),
        StatementLine::decl(&cfg),
        StatementBusiness::decl(&cfg),
        Statement::decl(&cfg),
        PayoutKind::decl(&cfg),
        PayoutStatus::decl(&cfg),
        PayoutStep::decl(&cfg),
        Payout::decl(&cfg),
        PayoutLine::decl(&cfg),
        PayoutDetail::decl(&cfg),
        PayoutInterval::decl(&cfg),
        PayoutSchedule::decl(&cfg),
        SettlementAccount::decl(&cfg),
        PayoutSettings::decl(&cfg),
        ClockStep::decl(&cfg),
        ImportTemplate::decl(&cfg),
        ImportIssue::decl(&cfg),
        ImportPreview::decl(&cfg),
        ImportStatus::decl(&cfg),
        Import::decl(&cfg),
        FileChunk::decl(&cfg),
        AmountMode::decl(&cfg),
        PageInterval::decl(&cfg),
        PayPageInput::decl(&cfg),
        PayPage::decl(&cfg),
        OrderStatus::decl(&cfg),
        PayFailure::decl(&cfg),
        OrderItem::decl(&cfg),
        Order::decl(&cfg),
        OrderRefund::decl(&cfg),
        OrderFilter::decl(&cfg),
        OrderAction::decl(&cfg),
        CardBrand::decl(&cfg),
        Card::decl(&cfg),
        CardScheduleStatus::decl(&cfg),
        CardPauseReason::decl(&cfg),
        CardSchedule::decl(&cfg),
        EMandateState::decl(&cfg),
        EMandateChangeable::decl(&cfg),
        EMandateRequestInput::decl(&cfg),
        EMandateRequest::decl(&cfg),
        WebhookEndpoint::decl(&cfg),
        DeliveryState::decl(&cfg),
        WebhookDelivery::decl(&cfg),
        ApiTokenState::decl(&cfg),
        ApiToken::decl(&cfg),
        Member::decl(&cfg),
        InviteStatus::decl(&cfg),
        Invite::decl(&cfg),
        Team::decl(&cfg),
        InviteDetails::decl(&cfg),
        CustomRole::decl(&cfg),
        PresetRole::decl(&cfg),
        RoleList::decl(&cfg),
        HistoryActorKind::decl(&cfg),
        HistoryAction::decl(&cfg),
        HistoryRecordKind::decl(&cfg),
        HistoryEntry::decl(&cfg),
        HistoryFieldChange::decl(&cfg),
        HistoryDetail::decl(&cfg),
        RecordEdit::decl(&cfg),
        SearchKind::decl(&cfg),
        SearchHit::decl(&cfg),
        SearchGroup::decl(&cfg),
        HistoryFilter::decl(&cfg),
        HistoryPerson::decl(&cfg),
        HistoryExportPiece::decl(&cfg),
        ErrorCode::decl(&cfg),
        FieldError::decl(&cfg),
        WireError::decl(&cfg),
        EditConflict::decl(&cfg),
        FieldConflict::decl(&cfg),
        Resume::decl(&cfg),
        ClientFrame::decl(&cfg),
        ServerFrame::decl(&cfg),
        Command::decl(&cfg),
        Query::decl(&cfg),
        ReplyBody::decl(&cfg),
        EntityKind::decl(&cfg),
        Change::decl(&cfg),
    ];
    let mut out = String::from(
        "// Generated from the `protocol` crate by `cargo test -p protocol` with UPDATE_PROTOCOL=1.\n// Do not edit by hand.\n\n",
    );
    for decl in decls {
        out.push_str("export ");
        out.push_str(&decl);
        out.push_str("\n\n");
    }
    out.push_str(&format!(
        "export const MAX_FRAME_BYTES = {MAX_FRAME_BYTES};\n"
    ));
    out.push_str(&format!(
        "export const PAY_PAGE_LOGO_MAX_BYTES = {PAY_PAGE_LOGO_MAX_BYTES};\n"
    ));
    out.push_str(&format!(
        "export const SEARCH_MIN_CHARS = {SEARCH_MIN_CHARS};\nexport const SEARCH_MAX_CHARS = {SEARCH_MAX_CHARS};\n"
    ));
    out.push_str(&banks_typescript());
    out
}

/// The one bank list, as data for the web app.
fn banks_typescript() -> String {
    let mut out = String::from(
        "\n/** South African banks in the order merchants look for them, with the universal branch code a debit to any of their branches can use and the fewest and most digits of their account numbers. */\n\
         export const BANKS: readonly { id: BankId; name: string; branchCode: string; accountDigits: readonly [number, number] }[] = [\n",
    );
    for bank in BANKS {
        let id = rmp_serde::to_vec(&bank.id)
            .ok()
            .and_then(|bytes| rmp_serde::from_slice::<String>(&bytes).ok())
            .unwrap_or_default();
        out.push_str(&format!(
            "  {{ id: \"{id}\", name: \"{}\", branchCode: \"{}\", accountDigits: [{}, {}] }},\n",
            bank.name, bank.branch_code, bank.account_digits.0, bank.account_digits.1
        ));
    }
    out.push_str("];\n");
    out
}
