//! Spreadsheet uploads over the socket, before anything is written: the file
//! arrives in pieces, is checked as a whole, previewed, then confirmed (the
//! import job writes it) or dropped. Uploads live in memory for a while and
//! belong to the user, merchant and mode that started them.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use moka::sync::Cache;
use protocol::{
    Change, Command, ErrorCode, FieldError, IMPORT_CHUNK_BYTES, IMPORT_MAX_FILE_BYTES, Import,
    ImportPreview, ImportStatus, ImportTemplate, Language, PaymentKind, Query, ReplyBody,
    WireError,
};

use crate::state::State;
use paydesk::domain::calendar::iso_date;
use paydesk::domain::imports::duplicates::find_in_upload;
use paydesk::domain::imports::queries::chunk_of;
use paydesk::domain::imports::rows::method_of;
use paydesk::domain::imports::{CheckedFile, check_file_keeping_rows, workbook};
use paydesk::domain::scope::stream_today;
use paydesk::domain::{Scope, payment_methods};
use paydesk::error::{AppError, AppResult};
use paydesk::ids::new_id;
use paydesk::store::Tx;
use paydesk::store::conn::Conn;
use paydesk::store::stream::{self, Cause, StreamKey, Work};
use paydesk::store::{accounts, clocks, imports as store};

/// How long an upload waits for its next step.
const IDLE: Duration = Duration::from_secs(30 * 60);
/// Memory all uploads together may hold.
const MAX_HELD_BYTES: u64 = 512 * 1024 * 1024;
/// Problems per preview page.
const PREVIEW_PAGE: usize = 100;

struct Upload {
    merchant_id: String,
    mode: protocol::Mode,
    user_id: String,
    kind: PaymentKind,
    template: ImportTemplate,
    file_name: String,
    size: u32,
    bytes: Vec<u8>,
    checked: Option<Arc<Checked>>,
}

/// What checking an upload found, on which day, and the rows it read.
struct Checked {
    found: CheckedFile,
    today: time::Date,
    /// See `reader::kept`: what the commit reads instead of the file.
    kept_rows: Vec<u8>,
    /// `store::file_sha256` of the file.
    file_sha256: String,
    /// The latest earlier import of the same file in this stream, when checked.
    duplicate_of: Option<Import>,
    /// Valid rows repeating a stored payment or an earlier row, when checked.
    duplicates: Vec<protocol::ImportIssue>,
}

impl Upload {
    /// What checking found; an upload not checked yet cannot be previewed or confirmed.
    fn checked(&self) -> AppResult<Arc<Checked>> {
        self.checked
            .clone()
            .ok_or(AppError::Code(ErrorCode::ImportUploadIncomplete))
    }
}

type Shared = Arc<Mutex<Upload>>;

pub struct Uploads {
    uploads: Cache<String, Shared>,
    /// Made files (sheets of invalid rows), kept while they are downloaded piece by piece.
    downloads: Cache<String, Arc<(String, Vec<u8>)>>,
}

impl Default for Uploads {
    fn default() -> Self {
        Uploads {
            uploads: Cache::builder()
                .time_to_idle(IDLE)
                // The file, and once checked the rows kept from it: compressed,
                // those are smaller than the file (an xlsx's are about half).
                .weigher(|_, upload: &Shared| {
                    upload.lock().map_or(1, |u| u.size.saturating_mul(2).max(1))
                })
                .max_capacity(MAX_HELD_BYTES)
                .build(),
            downloads: Cache::builder()
                .time_to_idle(Duration::from_secs(10 * 60))
                .weigher(|_, file: &Arc<(String, Vec<u8>)>| file.1.len().max(1) as u32)
                .max_capacity(MAX_HELD_BYTES / 4)
                .build(),
        }
    }
}

fn lock(upload: &Shared) -> std::sync::MutexGuard<'_, Upload> {
    upload
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn not_found() -> AppError {
    AppError::Code(ErrorCode::ImportUploadNotFound)
}

/// The name without any folder a browser may have sent, at most 200 characters.
fn clean_file_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let clean: String = base.chars().filter(|c| !c.is_control()).take(200).collect();
    if clean.trim().is_empty() {
        "upload".into()
    } else {
        clean
    }
}

impl Uploads {
    /// The upload, if it is this user's on this stream.
    fn mine(&self, scope: &Scope, upload_id: &str) -> AppResult<Shared> {
        let upload = self.uploads.get(upload_id).ok_or_else(not_found)?;
        let owned = {
            let u = lock(&upload);
            u.merchant_id == scope.merchant_id && u.mode == scope.mode && u.user_id == scope.user_id
        };
        if owned { Ok(upload) } else { Err(not_found()) }
    }

    pub fn begin(
        &self,
        scope: &Scope,
        kind: PaymentKind,
        template: ImportTemplate,
        file_name: &str,
        size: u32,
    ) -> AppResult<ReplyBody> {
        if size > IMPORT_MAX_FILE_BYTES {
            return Err(AppError::Code(ErrorCode::ImportTooLarge));
        }
        if size == 0 {
            return Err(AppError::Code(ErrorCode::ImportEmpty));
        }
        let upload_id = new_id("upl");
        let upload = Upload {
            merchant_id: scope.merchant_id.clone(),
            mode: scope.mode,
            user_id: scope.user_id.clone(),
            kind,
            template,
            file_name: clean_file_name(file_name),
            size,
            bytes: Vec::with_capacity(size as usize),
            checked: None,
        };
        self.uploads
            .insert(upload_id.clone(), Arc::new(Mutex::new(upload)));
        Ok(ReplyBody::ImportUpload {
            upload_id,
            chunk_bytes: IMPORT_CHUNK_BYTES,
        })
    }

    /// Pieces arrive in order; a piece sent again (a retried frame) is
    /// accepted once.
    pub fn chunk(
        &self,
        scope: &Scope,
        upload_id: &str,
        offset: u32,
        data: &[u8],
    ) -> AppResult<ReplyBody> {
        let upload = self.mine(scope, upload_id)?;
        let mut u = lock(&upload);
        let held = u.bytes.len() as u32;
        let fits = data.len() as u32 <= IMPORT_CHUNK_BYTES
            && u64::from(offset) + data.len() as u64 <= u64::from(u.size);
        if !fits || offset > held || u.checked.is_some() {
            return Err(AppError::Code(ErrorCode::InvalidInput));
        }
        if offset == held {
            u.bytes.extend_from_slice(data);
        }
        Ok(ReplyBody::ImportChunkReceived {
            received: u.bytes.len() as u32,
        })
    }

    /// Reads and checks the whole file on a blocking thread.
    pub async fn check(
        &self,
        state: &State,
        scope: &Scope,
        upload_id: &str,
    ) -> AppResult<ReplyBody> {
        let upload = self.mine(scope, upload_id)?;
        let (file_name, bytes, template, kind) = {
            let u = lock(&upload);
            if u.bytes.len() as u32 != u.size {
                return Err(AppError::Code(ErrorCode::ImportUploadIncomplete));
            }
            (u.file_name.clone(), u.bytes.clone(), u.template, u.kind)
        };
        let mut tx = state.db.begin_read().await?;
        let today = stream_today(&mut tx, scope).await?;
        let settings = payment_methods::settings_in_tx(&mut tx, scope).await?;
        tx.rollback().await?;
        payment_methods::ensure_enabled(&settings, method_of(template))?;
        let (checked, file_sha256) = tokio::task::spawn_blocking(move || {
            let checked = check_file_keeping_rows(&file_name, &bytes, template, kind, today);
            (checked, store::file_sha256(&bytes))
        })
        .await
        .map_err(|e| AppError::Internal(format!("import check failed: {e}")))?;
        let checked = checked.map_err(|refusal| match refusal.column {
            Some(column) => AppError::Refused(WireError {
                code: refusal.code,
                fields: vec![FieldError {
                    field: column,
                    code: refusal.code,
                }],
                conflict: None,
            }),
            None => AppError::Code(refusal.code),
        })?;
        let (mut found, kept_rows) = checked;
        let row_keys = std::mem::take(&mut found.row_keys);
        // Repeats are looked up now, so the preview shows them; the commit
        // looks again, batch by batch, and the confirm for the file.
        let mut conn = Conn::from_pool(state.db.pool.acquire().await?);
        let stream = (scope.merchant_id.as_str(), scope.mode);
        let duplicates = find_in_upload(&mut conn, stream, (template, kind), &row_keys).await?;
        drop(row_keys);
        let duplicate_of =
            store::latest_of_file(&mut conn, &scope.merchant_id, scope.mode, &file_sha256).await?;
        drop(conn);
        lock(&upload).checked = Some(Arc::new(Checked {
            found,
            today,
            kept_rows,
            file_sha256,
            duplicate_of,
            duplicates,
        }));
        self.preview(scope, upload_id, 0)
    }

    pub fn preview(&self, scope: &Scope, upload_id: &str, offset: u32) -> AppResult<ReplyBody> {
        let upload = self.mine(scope, upload_id)?;
        let u = lock(&upload);
        let checked = u.checked()?;
        let found = &checked.found;
        let (start, end) = page_of(&found.issues, offset);
        let duplicates = &checked.duplicates;
        let (first, after) = page_of(duplicates, 0);
        Ok(ReplyBody::ImportPreview {
            preview: Box::new(ImportPreview {
                upload_id: upload_id.to_string(),
                kind: u.kind,
                template: u.template,
                file_name: u.file_name.clone(),
                rows: found.rows,
                valid: found.valid,
                invalid: found.invalid,
                issues: found.issues[start..end].to_vec(),
                issue_count: found.issues.len() as u32,
                next_offset: (end < found.issues.len()).then_some(end as u32),
                duplicate_of: checked.duplicate_of.clone(),
                duplicates: duplicates.len() as u32,
                duplicate_rows: duplicates[first..after].to_vec(),
                duplicates_next_offset: (after < duplicates.len()).then_some(after as u32),
            }),
        })
    }

    /// Another page of the rows of a checked upload that repeat a payment.
    pub fn preview_duplicates(
        &self,
        scope: &Scope,
        upload_id: &str,
        offset: u32,
    ) -> AppResult<ReplyBody> {
        let upload = self.mine(scope, upload_id)?;
        let checked = lock(&upload).checked()?;
        let duplicates = &checked.duplicates;
        let (start, end) = page_of(duplicates, offset);
        Ok(ReplyBody::ImportIssuePage {
            items: duplicates[start..end].to_vec(),
            total: duplicates.len() as u32,
            next_offset: (end < duplicates.len()).then_some(end as u32),
        })
    }

    pub fn discard(&self, scope: &Scope, upload_id: &str) -> AppResult<ReplyBody> {
        self.mine(scope, upload_id)?;
        self.uploads.invalidate(upload_id);
        Ok(ReplyBody::Done {})
    }

    /// Records the import with its file and problems, as one delta, and
    /// hands it to the import job. A file this stream imported before is
    /// refused unless the user chose to import it again; either way the
    /// user's choices are recorded on the import.
    pub async fn confirm(
        &self,
        state: &State,
        scope: &Scope,
        cause: &Cause,
        upload_id: &str,
        choice: ConfirmChoice,
    ) -> AppResult<ReplyBody> {
        let upload = self.mine(scope, upload_id)?;
        let (file_name, bytes, template, kind, checked) = {
            let u = lock(&upload);
            let checked = u.checked()?;
            (
                u.file_name.clone(),
                u.bytes.clone(),
                u.template,
                u.kind,
                checked,
            )
        };
        let (found, today) = (&checked.found, checked.today);
        if found.valid == 0 {
            return Err(AppError::Code(ErrorCode::ImportNothingValid));
        }
        let author = accounts::find_account(&state.db, &scope.user_id)
            .await?
            .map(|a| a.name)
            .unwrap_or_default();
        let mut import = Import {
            id: new_id("imp"),
            mode: scope.mode,
            kind,
            template,
            file_name,
            status: ImportStatus::Committing,
            rows: found.rows,
            valid: found.valid,
            invalid: found.invalid,
            committed: 0,
            failed: 0,
            skipped: 0,
            include_duplicates: choice.include_duplicates,
            duplicate_of: None,
            created_by_name: author,
            // An import is a business record: on the stream's clock.
            created_at: clocks::stream_now_ms(&state.db.pool, &scope.merchant_id, scope.mode)
                .await?,
            finished_at: None,
        };
        let key = StreamKey {
            merchant_id: scope.merchant_id.clone(),
            mode: scope.mode,
        };
        let written = stream::write(&state.db, &key, cause, async |tx: &mut Tx, _seq| {
            // Looked up again in the write: a second tab may have confirmed
            // the same file since this upload was checked.
            let earlier = store::latest_of_file(
                &mut **tx,
                &scope.merchant_id,
                scope.mode,
                &checked.file_sha256,
            )
            .await?;
            if earlier.is_some() && !choice.allow_duplicate_file {
                return Err(AppError::Code(ErrorCode::ImportDuplicateFile));
            }
            import.duplicate_of = earlier.map(|e| e.id);
            store::insert_import(
                tx,
                &scope.merchant_id,
                &store::NewImport {
                    import: &import,
                    file: &bytes,
                    file_sha256: &checked.file_sha256,
                    kept_rows: &checked.kept_rows,
                    customer_last_rows: &found.customer_last_rows,
                    checked_on: &iso_date(today),
                    created_by: &scope.user_id,
                },
            )
            .await?;
            store::insert_issues(tx, &import.id, &found.issues).await?;
            let changes = vec![Change::ImportUpserted {
                import: Box::new(import.clone()),
            }];
            Ok(Work::changed(changes, ()))
        })
        .await?;
        let seq = written
            .seq
            .ok_or_else(|| AppError::Internal("an import's event was not written".into()))?;
        self.uploads.invalidate(upload_id);
        state.merchants.advance(&key, seq);
        state.imports.enqueue(&import.id);
        Ok(ReplyBody::Committed {
            seq,
            id: Some(import.id),
        })
    }

    /// The invalid rows of an upload (`upl_…`) or of an import (`imp_…`),
    /// made once and handed out piece by piece.
    pub async fn download_issues(
        &self,
        state: &State,
        scope: &Scope,
        id: &str,
        offset: u32,
    ) -> AppResult<ReplyBody> {
        let language = accounts::find_account(&state.db, &scope.user_id)
            .await?
            .map_or(Language::En, |a| a.language);
        let cache_key = format!(
            "{}|{}|{}|{}",
            scope.merchant_id,
            scope.mode.as_str(),
            id,
            language.as_str()
        );
        let file = match self.downloads.get(&cache_key) {
            Some(file) => file,
            None => {
                let (file_name, bytes, issues) = if id.starts_with("upl_") {
                    let upload = self.mine(scope, id)?;
                    let u = lock(&upload);
                    let checked = u.checked()?;
                    (
                        u.file_name.clone(),
                        u.bytes.clone(),
                        checked.found.issues.clone(),
                    )
                } else {
                    store::file_and_issues(&state.db, &scope.merchant_id, scope.mode, id)
                        .await?
                        .ok_or(AppError::Code(ErrorCode::NotFound))?
                };
                let made = tokio::task::spawn_blocking(move || {
                    workbook::issues_xlsx(&file_name, &bytes, &issues, language)
                        .map(|sheet| (invalid_rows_name(&file_name), sheet))
                })
                .await
                .map_err(|e| AppError::Internal(format!("issues sheet failed: {e}")))??;
                let made = Arc::new(made);
                self.downloads.insert(cache_key, made.clone());
                made
            }
        };
        Ok(ReplyBody::FileChunk {
            chunk: Box::new(chunk_of(&file.0, workbook::CONTENT_TYPE, &file.1, offset)),
        })
    }
}

/// What the user chose at confirm (`Command::ConfirmImport`).
#[derive(Clone, Copy, Debug, Default)]
pub struct ConfirmChoice {
    pub include_duplicates: bool,
    pub allow_duplicate_file: bool,
}

/// The bounds of one preview page of `list` from `offset`.
fn page_of<T>(list: &[T], offset: u32) -> (usize, usize) {
    let start = (offset as usize).min(list.len());
    (start, (start + PREVIEW_PAGE).min(list.len()))
}

fn invalid_rows_name(file_name: &str) -> String {
    let stem = file_name
        .rsplit_once('.')
        .map_or(file_name, |(stem, _)| stem);
    format!("{stem}-invalid-rows.xlsx")
}

/// Runs an upload step (routed `Runs::Upload`): for the socket and the
/// machine API alike.
pub async fn run_upload_command(
    state: &State,
    scope: &Scope,
    cause: &Cause,
    command: Command,
) -> AppResult<ReplyBody> {
    let uploads = &state.uploads;
    match command {
        Command::BeginImport {
            kind,
            template,
            file_name,
            size,
        } => uploads.begin(scope, kind, template, &file_name, size),
        Command::UploadImportChunk {
            upload_id,
            offset,
            data,
        } => uploads.chunk(scope, &upload_id, offset, &data),
        Command::CheckImport { upload_id } => uploads.check(state, scope, &upload_id).await,
        Command::ConfirmImport {
            upload_id,
            include_duplicates,
            allow_duplicate_file,
        } => {
            let choice = ConfirmChoice {
                include_duplicates,
                allow_duplicate_file,
            };
            uploads
                .confirm(state, scope, cause, &upload_id, choice)
                .await
        }
        Command::DiscardImport { upload_id } => uploads.discard(scope, &upload_id),
        // Routed elsewhere by `routes::command_route`.
        _ => Err(AppError::Code(ErrorCode::BadFrame)),
    }
}

/// Answers a query: those about uploads from memory, the rest from the
/// database. For the socket and the machine API alike.
pub async fn run_query(
    state: &State,
    scope: &Scope,
    token_hash: &str,
    query: Query,
) -> AppResult<ReplyBody> {
    match query {
        Query::GetImportPreview { upload_id, offset } => {
            state.uploads.preview(scope, &upload_id, offset)
        }
        Query::GetImportPreviewDuplicates { upload_id, offset } => {
            state.uploads.preview_duplicates(scope, &upload_id, offset)
        }
        Query::DownloadImportIssues { id, offset } => {
            state
                .uploads
                .download_issues(state, scope, &id, offset)
                .await
        }
        other => paydesk::domain::run_query(&state.db, scope, token_hash, &other).await,
    }
}
