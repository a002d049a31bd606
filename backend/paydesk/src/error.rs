//! The backend's one error type, mapped once to socket replies and HTTP answers.

use protocol::{ErrorCode, FieldError, WireError};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("invalid input")]
    Invalid(Vec<FieldError>),
    #[error("{0:?}")]
    Code(ErrorCode),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    #[error("encoding: {0}")]
    Encode(#[from] rmp_serde::encode::Error),
    #[error("decoding: {0}")]
    Decode(#[from] rmp_serde::decode::Error),
    #[error("{0}")]
    Internal(String),
    /// Refused as a whole with its own code, naming what it is about in
    /// `fields` (a spreadsheet's missing column).
    #[error("{0:?}")]
    Refused(WireError),
}

pub type AppResult<T> = Result<T, AppError>;

impl AppError {
    pub fn field(field: &str, code: ErrorCode) -> AppError {
        AppError::Invalid(vec![FieldError {
            field: field.into(),
            code,
        }])
    }

    /// The database could not take the work in time: trying again later
    /// succeeds.
    pub fn is_busy(&self) -> bool {
        match self {
            AppError::Code(code) => *code == ErrorCode::Busy,
            AppError::Database(err) => crate::store::is_busy(err),
            _ => false,
        }
    }

    /// What the user sees. Internal failures stay opaque and are logged instead.
    pub fn to_wire(&self) -> WireError {
        match self {
            AppError::Invalid(fields) => WireError {
                code: ErrorCode::InvalidInput,
                fields: fields.clone(),
                conflict: None,
            },
            AppError::Code(code) => WireError::new(*code),
            AppError::Refused(wire) => wire.clone(),
            AppError::Database(err) if crate::store::is_busy(err) => {
                tracing::warn!(error = %err, "the database was busy: answered busy");
                WireError::new(ErrorCode::Busy)
            }
            other => {
                tracing::error!(error = %other, "internal error");
                WireError::new(ErrorCode::Internal)
            }
        }
    }
}
