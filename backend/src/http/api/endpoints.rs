//! The machine API's one table: each HTTP route and the socket command or
//! query it runs. Requests are turned into that very `Command` or `Query`
//! (path parameters, query string and body filled into its fields), so
//! every rule, the permission table and the write path are the socket's;
//! nothing here decides anything. The OpenAPI document is made from this
//! table and the protocol's types.

/// What a route runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Query,
    Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
    Put,
    Delete,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "get",
            Method::Post => "post",
            Method::Put => "put",
            Method::Delete => "delete",
        }
    }
}

/// How a request's body becomes the command's fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Body {
    None,
    /// The whole body is this field (e.g. `input`), of this schema.
    Wrap(&'static str, &'static str),
    /// The body's fields are the command's own: (name, schema, required).
    Fields(&'static [(&'static str, &'static str, bool)]),
    /// The raw request bytes are this field (file pieces, logos).
    Raw(&'static str),
}

/// What the answer is, for the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `{ items: [T], nextCursor? }`.
    Page(&'static str),
    /// One `T`.
    One(&'static str),
    /// `{ field: [T] }`.
    ListIn(&'static str, &'static str),
    /// `{ id, seq }` of the committed change.
    Committed,
    /// `{ id, deleted: true }`: what was held only in memory (an upload)
    /// is gone, with no event, so no `seq`.
    Deleted,
}

#[derive(Clone, Copy, Debug)]
pub struct Endpoint {
    pub method: Method,
    /// With `{param}` segments named as the command's fields are.
    pub path: &'static str,
    pub kind: Kind,
    /// The `Command` or `Query` variant.
    pub name: &'static str,
    pub body: Body,
    /// Query-string parameters (schema name or `string`/`integer`); those
    /// marked filter go into the query's `filter`.
    pub params: &'static [(&'static str, &'static str, Param)],
    /// After a command, the query that reads what it made or changed, and
    /// its id field: the answer is that record.
    pub then: Option<(&'static str, &'static str)>,
    pub answer: Answer,
    pub tag: &'static str,
    pub summary: &'static str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    Top,
    Filter,
}

use Answer::{Committed, Deleted, ListIn, One, Page};
use Kind::{Command as C, Query as Q};
use Method::{Delete, Get, Post, Put};
use Param::{Filter, Top};

const PAGING: [(&str, &str, Param); 2] = [("cursor", "string", Top), ("limit", "integer", Top)];

const fn ep(
    method: Method,
    path: &'static str,
    kind: Kind,
    name: &'static str,
    tag: &'static str,
    summary: &'static str,
) -> Endpoint {
    Endpoint {
        method,
        path,
        kind,
        name,
        body: Body::None,
        params: &[],
        then: None,
        answer: Committed,
        tag,
        summary,
    }
}

const fn with_body(mut e: Endpoint, body: Body) -> Endpoint {
    e.body = body;
    e
}

const fn with_params(
    mut e: Endpoint,
    params: &'static [(&'static str, &'static str, Param)],
) -> Endpoint {
    e.params = params;
    e
}

const fn answers(mut e: Endpoint, answer: Answer) -> Endpoint {
    e.answer = answer;
    e
}

const fn then(mut e: Endpoint, query: &'static str, id: &'static str, answer: Answer) -> Endpoint {
    e.then = Some((query, id));
    e.answer = answer;
    e
}

pub const ENDPOINTS: &[Endpoint] = &[
    // Customers and their bank accounts
    with_params(
        answers(
            ep(
                Get,
                "/customers",
                Q,
                "ListCustomers",
                "customers",
                "List customers, newest first",
            ),
            Page("Customer"),
        ),
        &[
            ("search", "string", Top),
            ("status", "CustomerStatus", Top),
            PAGING[0],
            PAGING[1],
        ],
    ),
    then(
        with_body(
            ep(
                Post,
                "/customers",
                C,
                "CreateCustomer",
                "customers",
                "Create a customer",
            ),
            Body::Wrap("input", "CustomerInput"),
        ),
        "GetCustomer",
        "customerId",
        One("Customer"),
    ),
    answers(
        ep(
            Get,
            "/customers/{customerId}",
            Q,
            "GetCustomer",
            "customers",
            "Get a customer",
        ),
        One("Customer"),
    ),
    then(
        with_body(
            ep(
                Put,
                "/customers/{customerId}",
                C,
                "UpdateCustomer",
                "customers",
                "Change a customer",
            ),
            Body::Wrap("input", "CustomerInput"),
        ),
        "GetCustomer",
        "customerId",
        One("Customer"),
    ),
    then(
        ep(
            Post,
            "/customers/{customerId}/archive",
            C,
            "ArchiveCustomer",
            "customers",
            "Archive a customer",
        ),
        "GetCustomer",
        "customerId",
        One("Customer"),
    ),
    then(
        ep(
            Post,
            "/customers/{customerId}/restore",
            C,
            "RestoreCustomer",
            "customers",
            "Restore an archived customer",
        ),
        "GetCustomer",
        "customerId",
        One("Customer"),
    ),
    answers(
        ep(
            Get,
            "/customers/{customerId}/bank-accounts",
            Q,
            "ListBankAccounts",
            "bank accounts",
            "List a customer's bank accounts",
        ),
        ListIn("accounts", "BankAccount"),
    ),
    with_body(
        ep(
            Post,
            "/customers/{customerId}/bank-accounts",
            C,
            "AddBankAccount",
            "bank accounts",
            "Add a bank account to a customer",
        ),
        Body::Wrap("input", "BankAccountInput"),
    ),
    ep(
        Delete,
        "/bank-accounts/{bankAccountId}",
        C,
        "RemoveBankAccount",
        "bank accounts",
        "Remove a bank account",
    ),
    // Mandates
    with_params(
        answers(
            ep(
                Get,
                "/mandates",
                Q,
                "ListMandates",
                "mandates",
                "List mandates",
            ),
            Page("Mandate"),
        ),
        &[
            ("status", "MandateStatus", Filter),
            ("method", "PaymentMethod", Filter),
            ("search", "string", Filter),
            ("customerId", "string", Filter),
            ("sort", "SortOrder", Top),
            PAGING[0],
            PAGING[1],
        ],
    ),
    answers(
        ep(
            Get,
            "/mandates/{mandateId}",
            Q,
            "GetMandate",
            "mandates",
            "Get a mandate",
        ),
        One("Mandate"),
    ),
    then(
        with_body(
            ep(
                Post,
                "/mandates/{mandateId}/actions",
                C,
                "ActOnMandate",
                "mandates",
                "Suspend, resume, cancel, archive or restore a mandate",
            ),
            Body::Fields(&[("action", "MandateAction", true)]),
        ),
        "GetMandate",
        "mandateId",
        One("Mandate"),
    ),
    // Payments
    with_params(
        answers(
            ep(
                Get,
                "/payments",
                Q,
                "ListPayments",
                "payments",
                "List payments of a kind (once_off or recurring)",
            ),
            Page("Payment"),
        ),
        &[
            ("kind", "PaymentKind", Top),
            ("status", "PaymentStatus", Filter),
            ("method", "PaymentMethod", Filter),
            ("from", "string", Filter),
            ("to", "string", Filter),
            ("search", "string", Filter),
            ("customerId", "string", Filter),
            ("sort", "SortOrder", Top),
            ("expand", "expand", Top),
            PAGING[0],
            PAGING[1],
        ],
    ),
    then(
        with_body(
            ep(
                Post,
                "/payments",
                C,
                "CreatePayment",
                "payments",
                "Create a once-off or recurring payment",
            ),
            Body::Wrap("input", "PaymentInput"),
        ),
        "GetPayment",
        "paymentId",
        One("Payment"),
    ),
    with_params(
        answers(
            ep(
                Get,
                "/payments/{paymentId}",
                Q,
                "GetPayment",
                "payments",
                "Get a payment",
            ),
            One("Payment"),
        ),
        &[("expand", "expand", Top)],
    ),
    then(
        with_body(
            ep(
                Post,
                "/payments/{paymentId}/actions",
                C,
                "ActOnPayment",
                "payments",
                "Start, pause, resume, cancel or retry a payment",
            ),
            Body::Fields(&[("action", "PaymentAction", true)]),
        ),
        "GetPayment",
        "paymentId",
        One("Payment"),
    ),
    // Transactions
    with_params(
        answers(
            ep(
                Get,
                "/transactions",
                Q,
                "ListTransactions",
                "transactions",
                "List transactions",
            ),
            Page("Transaction"),
        ),
        &[
            ("status", "TransactionStatus", Filter),
            ("method", "PaymentMethod", Filter),
            ("from", "string", Filter),
            ("to", "string", Filter),
            ("search", "string", Filter),
            ("customerId", "string", Filter),
            ("sort", "SortOrder", Top),
            PAGING[0],
            PAGING[1],
        ],
    ),
    answers(
        ep(
            Get,
            "/transactions/{transactionId}",
            Q,
            "GetTransaction",
            "transactions",
            "Get a transaction",
        ),
        One("Transaction"),
    ),
    // Pay pages
    with_params(
        answers(
            ep(
                Get,
                "/pay-pages",
                Q,
                "ListPayPages",
                "pay pages",
                "List pay pages",
            ),
            Page("PayPage"),
        ),
        &PAGING,
    ),
    then(
        with_body(
            ep(
                Post,
                "/pay-pages",
                C,
                "CreatePayPage",
                "pay pages",
                "Create a pay page",
            ),
            Body::Wrap("input", "PayPageInput"),
        ),
        "GetPayPage",
        "pageId",
        One("PayPage"),
    ),
    answers(
        ep(
            Get,
            "/pay-pages/{pageId}",
            Q,
            "GetPayPage",
            "pay pages",
            "Get a pay page",
        ),
        One("PayPage"),
    ),
    then(
        with_body(
            ep(
                Put,
                "/pay-pages/{pageId}",
                C,
                "UpdatePayPage",
                "pay pages",
                "Change a pay page",
            ),
            Body::Wrap("input", "PayPageInput"),
        ),
        "GetPayPage",
        "pageId",
        One("PayPage"),
    ),
    then(
        with_body(
            ep(
                Post,
                "/pay-pages/{pageId}/active",
                C,
                "SetPayPageActive",
                "pay pages",
                "Open or close a pay page",
            ),
            Body::Fields(&[("active", "boolean", true)]),
        ),
        "GetPayPage",
        "pageId",
        One("PayPage"),
    ),
    // Orders
    with_params(
        answers(
            ep(Get, "/orders", Q, "ListOrders", "orders", "List orders"),
            Page("Order"),
        ),
        &[
            ("status", "OrderStatus", Filter),
            ("method", "PaymentMethod", Filter),
            ("pageId", "string", Filter),
            ("search", "string", Filter),
            PAGING[0],
            PAGING[1],
        ],
    ),
    answers(
        ep(
            Get,
            "/orders/{orderId}",
            Q,
            "GetOrder",
            "orders",
            "Get an order",
        ),
        One("Order"),
    ),
    then(
        with_body(
            ep(
                Post,
                "/orders/{orderId}/actions",
                C,
                "ActOnOrder",
                "orders",
                "Refund or cancel an order",
            ),
            Body::Fields(&[
                ("action", "OrderAction", true),
                ("amountCents", "integer", false),
            ]),
        ),
        "GetOrder",
        "orderId",
        One("Order"),
    ),
    // Imports: upload a spreadsheet in pieces, check it, read the preview, confirm.
    with_params(
        answers(
            ep(
                Get,
                "/imports",
                Q,
                "ListImports",
                "imports",
                "List imports of a kind",
            ),
            Page("Import"),
        ),
        &[("kind", "PaymentKind", Top), PAGING[0], PAGING[1]],
    ),
    answers(
        ep(
            Get,
            "/imports/{importId}",
            Q,
            "GetImport",
            "imports",
            "Get an import and its progress",
        ),
        One("Import"),
    ),
    with_params(
        answers(
            ep(
                Get,
                "/imports/{importId}/issues",
                Q,
                "ListImportIssues",
                "imports",
                "An import's problems by row",
            ),
            Page("ImportIssue"),
        ),
        &[("offset", "integer", Top), ("limit", "integer", Top)],
    ),
    answers(
        with_body(
            ep(
                Post,
                "/imports/uploads",
                C,
                "BeginImport",
                "imports",
                "Begin uploading a spreadsheet",
            ),
            Body::Fields(&[
                ("kind", "PaymentKind", true),
                ("template", "ImportTemplate", true),
                ("fileName", "string", true),
                ("size", "integer", true),
            ]),
        ),
        One("ImportUpload"),
    ),
    answers(
        with_body(
            ep(
                Put,
                "/imports/uploads/{uploadId}/pieces/{offset}",
                C,
                "UploadImportChunk",
                "imports",
                "Send the next piece of the file (raw bytes)",
            ),
            Body::Raw("data"),
        ),
        One("ImportChunkReceived"),
    ),
    answers(
        ep(
            Post,
            "/imports/uploads/{uploadId}/check",
            C,
            "CheckImport",
            "imports",
            "Check the uploaded file",
        ),
        One("ImportPreview"),
    ),
    with_params(
        answers(
            ep(
                Get,
                "/imports/uploads/{uploadId}/preview",
                Q,
                "GetImportPreview",
                "imports",
                "Another page of a checked upload's problems",
            ),
            One("ImportPreview"),
        ),
        &[("offset", "integer", Top)],
    ),
    with_body(
        ep(
            Post,
            "/imports/uploads/{uploadId}/confirm",
            C,
            "ConfirmImport",
            "imports",
            "Confirm a checked upload: its rows are written",
        ),
        Body::Fields(&[
            ("includeDuplicates", "boolean", true),
            ("allowDuplicateFile", "boolean", true),
        ]),
    ),
    answers(
        ep(
            Delete,
            "/imports/uploads/{uploadId}",
            C,
            "DiscardImport",
            "imports",
            "Discard an upload",
        ),
        Deleted,
    ),
];

/// The endpoint a request's method and path name, and its path parameters.
pub fn find(
    method: Method,
    path: &str,
) -> Option<(&'static Endpoint, Vec<(&'static str, String)>)> {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    ENDPOINTS.iter().find_map(|endpoint| {
        if endpoint.method != method {
            return None;
        }
        let pattern: Vec<&'static str> = endpoint.path.trim_matches('/').split('/').collect();
        if pattern.len() != parts.len() {
            return None;
        }
        let mut found = Vec::new();
        for (want, got) in pattern.iter().zip(&parts) {
            if let Some(name) = want.strip_prefix('{').and_then(|w| w.strip_suffix('}')) {
                if got.is_empty() {
                    return None;
                }
                found.push((name, (*got).to_string()));
            } else if want != got {
                return None;
            }
        }
        Some((endpoint, found))
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn paths_find_their_endpoint_and_parameters() {
        let (e, params) = find(Method::Get, "/customers/cus_1").unwrap();
        assert_eq!(e.name, "GetCustomer");
        assert_eq!(params, vec![("customerId", "cus_1".to_string())]);
        assert_eq!(
            find(Method::Post, "/customers").unwrap().0.name,
            "CreateCustomer"
        );
        assert!(find(Method::Delete, "/customers").is_none());
        assert!(find(Method::Get, "/customers/cus_1/nothing").is_none());
    }
}
