//! `/api/v1`: the machine API for merchants' servers. A thin adapter: each
//! request becomes the socket's own `Command` or `Query` (see `endpoints`),
//! is checked against the same routing and permission table, and runs the
//! same way (commands on the merchant's queue, one event each, caused by
//! the token). Scoped by the token's merchant and mode.

pub mod endpoints;
mod framing;
pub mod guards;
pub mod openapi;
pub mod query_params;
pub(crate) mod reply;
mod request;
pub mod token_check;
mod unknown_fields;

use std::collections::HashMap;
use std::time::Instant;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use protocol::{Command, ErrorCode, Language, Query, ReplyBody, WireError};

use self::endpoints::{Answer, Endpoint, Kind};
use self::reply::Refusal;
use self::token_check::TokenCheck;
use crate::http::pay::words::language_of;
use crate::live::messages::Execute;
use crate::live::uploads;
use crate::state::State;
use paydesk::domain::api_tokens::authenticate::{TokenAccess, note_use};
use paydesk::domain::routes::{self, Needs, Runs};
use paydesk::domain::teams::TeamTools;
use paydesk::domain::{Scope, input_text};
use paydesk::ids::now_ms;
use paydesk::store::stream::{Actor as EventActor, Cause, StreamKey};

/// The longest `Idempotency-Key` accepted.
const MAX_KEY_LEN: usize = 64;

pub fn scope() -> actix_web::Scope {
    web::scope("/api/v1")
        .route("/openapi.json", web::get().to(openapi::serve))
        .default_service(web::to(handle))
}

/// One request of the machine API, after its token and its limits.
struct Call<'a> {
    state: &'a State,
    access: TokenAccess,
    client: String,
}

impl Call<'_> {
    fn scope(&self) -> Scope {
        Scope {
            merchant_id: self.access.merchant_id.clone(),
            mode: self.access.mode,
            user_id: self.access.token_id.clone(),
            role: self.access.grant().role,
            permissions: self.access.permissions,
            clock: self.state.clock,
            origin: self.state.config.public_url.clone().unwrap_or_default(),
        }
    }

    fn cause(&self, command_id: &str) -> Cause {
        Cause {
            actor: EventActor::ApiToken {
                token_id: self.access.token_id.clone(),
            },
            command_id: Some(command_id.to_string()),
            address: Some(self.client.clone()),
        }
    }

    /// What the token may do, by the one table; a token has no account of
    /// its own.
    fn allowed(&self, needs: Needs) -> Result<(), WireError> {
        if needs == Needs::OwnAccount {
            return Err(WireError::new(ErrorCode::Forbidden));
        }
        self.access.grant().check(needs).map_err(WireError::new)
    }

    async fn query(&self, query: Query) -> Result<ReplyBody, WireError> {
        self.allowed(routes::query_route(&query).needs)?;
        uploads::run_query(self.state, &self.scope(), "", query)
            .await
            .map_err(|e| e.to_wire())
    }

    async fn command(&self, command: Command, key: &str) -> Result<ReplyBody, WireError> {
        let route = routes::command_route(&command);
        // What only a person may do (their account, the team, the payout
        // account) is no token's, whatever its matrix.
        if !route.tokens {
            return Err(WireError::new(ErrorCode::Forbidden));
        }
        self.allowed(route.needs)?;
        // The key is the command's id, per token: a retry runs once and gets
        // the first answer; the same key with another body is refused.
        let command_id = format!("api:{}:{key}", self.access.token_id);
        if route.runs == Runs::Upload {
            let cause = self.cause(&command_id);
            return uploads::run_upload_command(self.state, &self.scope(), &cause, command)
                .await
                .map_err(|e| e.to_wire());
        }
        let state = self.state;
        let execute = Execute {
            command_id,
            user_id: self.access.token_id.clone(),
            token_id: Some(self.access.token_id.clone()),
            session_id: String::new(),
            address: Some(self.client.clone()),
            origin: state.config.public_url.clone().unwrap_or_default(),
            sealer: state.keys.webhooks.clone(),
            token_hasher: state.keys.api_tokens.clone(),
            address_check: None,
            // A token is never the owner, and sends no team command (its route).
            team: TeamTools {
                now: state.config.invite_clock.now(),
                origin: state.config.public_origin(),
                confirmed: None,
            },
            command,
        };
        let key = StreamKey::new(self.access.merchant_id.clone(), self.access.mode);
        let merchant = state.merchants.actor_for(key, &state.db, state.clock);
        merchant
            .send(execute)
            .await
            .unwrap_or_else(|_| Err(WireError::new(ErrorCode::Internal)))
    }
}

/// The token the request presents, checked; or the answer refusing it.
async fn access_of(
    state: &State,
    req: &HttpRequest,
    client: &str,
    language: Language,
) -> Result<TokenAccess, HttpResponse> {
    let Some(secret) = bearer(req) else {
        crate::metrics::api_refusal("missing");
        return Err(reply::unauthenticated(language, None));
    };
    match token_check::check_token(state, secret, client, "api").await {
        TokenCheck::Opened(access) => Ok(access),
        TokenCheck::Throttled(wait) => Err(reply::rate_limited(
            language,
            wait,
            "machineApi.tooManyFailures",
        )),
        TokenCheck::Refused(refusal) => Err(reply::unauthenticated(language, Some(refusal))),
        TokenCheck::Failed(err) => Err(reply::error(language, &err.to_wire())),
    }
}

/// The secret of an `Authorization: Bearer` header.
pub fn bearer(req: &HttpRequest) -> Option<&str> {
    let value = req.headers().get("authorization")?.to_str().ok()?;
    let (scheme, secret) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| secret.trim())
        .filter(|s| !s.is_empty())
}

/// Answers one request, counted in the metrics by its route's template.
async fn handle(state: State, req: HttpRequest, payload: web::Payload) -> HttpResponse {
    let started = Instant::now();
    let (language, _) = language_of(&req, None);
    let path = req.match_info().unprocessed().to_string();
    let (response, route) = match framing::endpoint_of(&req, &path, language) {
        Ok((endpoint, params)) => {
            let response = answer(state, &req, payload, language, endpoint, params).await;
            (response, endpoint.path)
        }
        Err(refused) => (*refused, "unmatched"),
    };
    let status = response.status().as_u16();
    crate::metrics::api_request(route, req.method().as_str(), status, started);
    response
}

async fn answer(
    state: State,
    req: &HttpRequest,
    payload: web::Payload,
    language: Language,
    endpoint: &'static Endpoint,
    params: Vec<(&'static str, String)>,
) -> HttpResponse {
    let body = match framing::body_of(req, payload, language).await {
        Ok(body) => body,
        Err(refused) => return refused,
    };
    let client = crate::http::client::client_address(req);
    let access = match access_of(&state, req, &client, language).await {
        Ok(access) => access,
        Err(refused) => return refused,
    };
    let per_minute = state.config.api_requests_per_minute;
    if let Err(wait) = state.api.take(&access.token_id, per_minute, Instant::now()) {
        crate::metrics::api_refusal("rate_limited");
        return reply::rate_limited(language, wait, "machineApi.rateLimited");
    }
    // At most one write a minute per token; a failure to note it does not
    // fail the request.
    if let Err(err) = note_use(&state.db, &access, &client, now_ms()).await {
        tracing::warn!(error = %err, "could not note an API token's use");
    }
    if let Err(refused) = framing::content_type_ok(req, endpoint, &body, language) {
        return *refused;
    }
    let call = Call {
        state: &state,
        access,
        client,
    };
    match run(&call, req, endpoint, &params, &body).await {
        Ok((status, value)) => reply::builder(status, language).json(value),
        Err(refused) => reply::refusal(language, &refused),
    }
}

/// Each relation `expand` names, answered whole beside its id: the
/// record's `customerId` as `customer`, its `mandateId` as `mandate` (null
/// when it has none), read with the token's own grant. On a page, each
/// item's; a record several items name is read once.
async fn expanded(
    call: &Call<'_>,
    body: &mut serde_json::Value,
    expand: Option<serde_json::Value>,
) -> Result<(), Refusal> {
    let Some(serde_json::Value::Array(names)) = expand else {
        return Ok(());
    };
    let names: Vec<String> = names
        .iter()
        .filter_map(|n| n.as_str().map(str::to_string))
        .collect();
    let mut read = HashMap::new();
    match body.get_mut("items") {
        Some(serde_json::Value::Array(items)) => {
            for item in items {
                expand_record(call, item, &names, &mut read).await?;
            }
        }
        _ => expand_record(call, body, &names, &mut read).await?,
    }
    Ok(())
}

async fn expand_record(
    call: &Call<'_>,
    record: &mut serde_json::Value,
    names: &[String],
    read: &mut HashMap<String, serde_json::Value>,
) -> Result<(), Refusal> {
    for name in names {
        let id_field = format!("{name}Id");
        let id = record[&id_field].as_str().unwrap_or_default().to_string();
        let related = if id.is_empty() {
            serde_json::Value::Null
        } else if let Some(known) = read.get(&id) {
            known.clone()
        } else {
            let tag = if name == "customer" {
                "GetCustomer"
            } else {
                "GetMandate"
            };
            let query = serde_json::json!({"t": tag, id_field: id});
            let query: Query =
                serde_json::from_value(query).map_err(|why| Refusal::unreadable(&why))?;
            let found = reply::body_json(&call.query(query).await?);
            read.insert(id, found.clone());
            found
        };
        record[name.as_str()] = related;
    }
    Ok(())
}

async fn run(
    call: &Call<'_>,
    req: &HttpRequest,
    endpoint: &Endpoint,
    params: &[(&'static str, String)],
    body: &[u8],
) -> Result<(StatusCode, serde_json::Value), Refusal> {
    let value = request::value_of(endpoint, params, req.query_string(), body)?;
    let invalid = |why: serde_json::Error| Refusal::unreadable(&why);
    if endpoint.kind == Kind::Query {
        let paged = value.get("cursor").is_some();
        let mut value = value;
        let expand = value.as_object_mut().and_then(|v| v.remove("expand"));
        let query: Query = serde_json::from_value(value).map_err(invalid)?;
        input_text::check(&query).map_err(|err| err.to_wire())?;
        let reply = call.query(query).await.map_err(|error| {
            // A cursor of the right shape that is no page of this list
            // (made up, or another list's): refused by its name too.
            let on_cursor = error.fields.iter().all(|f| f.field == "cursor");
            if paged && error.code == ErrorCode::InvalidInput && on_cursor {
                Refusal {
                    wire: WireError {
                        code: ErrorCode::InvalidInput,
                        fields: vec![protocol::FieldError {
                            field: "cursor".into(),
                            code: ErrorCode::InvalidInput,
                        }],
                        conflict: None,
                    },
                    detail: Some(
                        "`cursor` is not a page of this list: send its `nextCursor`".into(),
                    ),
                }
            } else {
                Refusal::from(error)
            }
        })?;
        let mut body = reply::body_json(&reply);
        expanded(call, &mut body, expand).await?;
        return Ok((StatusCode::OK, body));
    }
    let key = req
        .headers()
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .ok_or(WireError::new(ErrorCode::IdempotencyKeyRequired))?;
    if key.len() > MAX_KEY_LEN {
        return Err(Refusal::detailed(
            ErrorCode::InvalidInput,
            format!("the Idempotency-Key header is longer than {MAX_KEY_LEN} characters"),
        ));
    }
    // As documented (`^[!-~]+$`): visible ASCII, no spaces, so a key reads
    // the same in every log and client.
    if !key.chars().all(|c| ('!'..='~').contains(&c)) {
        return Err(Refusal::detailed(
            ErrorCode::InvalidInput,
            "the Idempotency-Key header may hold only visible ASCII characters, without spaces"
                .to_string(),
        ));
    }
    let command: Command = serde_json::from_value(value).map_err(invalid)?;
    input_text::check(&command).map_err(|err| err.to_wire())?;
    let running_key = format!("{}:{key}", call.access.token_id);
    let Some(_running) = call.state.api.start(&running_key) else {
        return Err(WireError::new(ErrorCode::IdempotencyKeyInUse).into());
    };
    let reply = call.command(command, key).await?;
    if endpoint.answer == Answer::Deleted {
        // Discarded from memory: nothing committed, so no `seq` to give.
        let id = params.first().map(|(_, v)| v.clone()).unwrap_or_default();
        return Ok((
            StatusCode::OK,
            serde_json::json!({"id": id, "deleted": true}),
        ));
    }
    let status = if endpoint.name.starts_with("Create") {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    // A change answers with the record as it is after it.
    if let (Some((query_name, id_field)), ReplyBody::Committed { id, .. }) = (endpoint.then, &reply)
    {
        let id = id.clone().or_else(|| {
            params
                .iter()
                .find(|(name, _)| name == &id_field)
                .map(|(_, v)| v.clone())
        });
        if let Some(id) = id {
            let query = serde_json::json!({"t": query_name, id_field: id});
            let query: Query = serde_json::from_value(query).map_err(invalid)?;
            let record = call.query(query).await?;
            return Ok((status, reply::body_json(&record)));
        }
    }
    Ok((status, reply::body_json(&reply)))
}
