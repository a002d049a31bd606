//! Reads of confirmed imports, and the files the import screens download.

use protocol::{FileChunk, IMPORT_CHUNK_BYTES, ImportTemplate, PaymentKind, ReplyBody};

use super::workbook;
use crate::domain::scope::stream_today;
use crate::domain::{Scope, checked_id};
use crate::error::{AppError, AppResult};
use crate::store::Db;
use crate::store::imports as store;
use crate::store::sql::{Cursor, page_limit};

/// One piece of a file, from `offset`.
pub fn chunk_of(file_name: &str, content_type: &str, bytes: &[u8], offset: u32) -> FileChunk {
    let start = (offset as usize).min(bytes.len());
    let end = (start + IMPORT_CHUNK_BYTES as usize).min(bytes.len());
    FileChunk {
        file_name: file_name.to_string(),
        content_type: content_type.to_string(),
        data: bytes[start..end].to_vec(),
        total: bytes.len() as u32,
        next_offset: (end < bytes.len()).then_some(end as u32),
    }
}

pub async fn list_imports(
    db: &Db,
    scope: &Scope,
    kind: PaymentKind,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> AppResult<ReplyBody> {
    let after = Cursor::decode(cursor)?;
    let limit = page_limit(limit);
    let mut items = store::list_imports(
        db,
        &scope.merchant_id,
        scope.mode,
        kind,
        after.as_ref(),
        limit,
    )
    .await?;
    let next_cursor = if items.len() > limit as usize {
        items.truncate(limit as usize);
        items.last().map(|i| Cursor::encode(i.created_at, &i.id))
    } else {
        None
    };
    Ok(ReplyBody::ImportPage { items, next_cursor })
}

pub async fn get_import(db: &Db, scope: &Scope, import_id: &str) -> AppResult<ReplyBody> {
    let import = store::find_import(
        &db.pool,
        &scope.merchant_id,
        scope.mode,
        checked_id(import_id)?,
    )
    .await?
    .ok_or(AppError::Code(protocol::ErrorCode::NotFound))?;
    Ok(ReplyBody::Import {
        import: Box::new(import),
    })
}

pub async fn list_import_issues(
    db: &Db,
    scope: &Scope,
    import_id: &str,
    offset: u32,
    limit: Option<u32>,
) -> AppResult<ReplyBody> {
    // An import of another stream is not found, not merely empty.
    get_import(db, scope, import_id).await?;
    let limit = page_limit(limit);
    let (items, total) =
        store::list_issues(db, &scope.merchant_id, scope.mode, import_id, offset, limit).await?;
    let shown = offset.saturating_add(items.len() as u32);
    Ok(ReplyBody::ImportIssuePage {
        items,
        total,
        next_offset: (shown < total).then_some(shown),
    })
}

pub async fn download_template(
    db: &Db,
    scope: &Scope,
    template: ImportTemplate,
    kind: PaymentKind,
    offset: u32,
) -> AppResult<ReplyBody> {
    let mut tx = db.begin_read().await?;
    let today = stream_today(&mut tx, scope).await?;
    tx.rollback().await?;
    let bytes = workbook::template_xlsx(template, kind, today)?;
    Ok(ReplyBody::FileChunk {
        chunk: Box::new(chunk_of(
            &workbook::template_file_name(template, kind),
            workbook::CONTENT_TYPE,
            &bytes,
            offset,
        )),
    })
}
