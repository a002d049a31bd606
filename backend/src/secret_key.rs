//! The server key: `SECRET_KEY` when set; otherwise a key generated once and
//! kept in a file under the data directory (`data/secret.key`, readable by
//! the server's user only), so a fresh machine runs with no settings and a
//! restart keeps the same key. The key is never logged.

use std::ffi::OsStr;
use std::io::Write;
use std::path::Path;

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;
use paydesk::auth::keys::ServerKey;
use paydesk::error::{AppError, AppResult};

use crate::config::Config;

/// Parses `--secret-key` / `SECRET_KEY`. Its own parser because clap's usual
/// message repeats the refused value, and a mistyped key is still mostly key.
#[derive(Clone, Copy, Debug, Default)]
pub struct SecretKeyParser;

impl TypedValueParser for SecretKeyParser {
    type Value = ServerKey;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<ServerKey, clap::Error> {
        let text = value.to_str().unwrap_or_default();
        ServerKey::parse(text).map_err(|problem| {
            clap::Error::raw(
                ErrorKind::ValueValidation,
                format!("SECRET_KEY: {problem}\n"),
            )
        })
    }
}

/// The configured key, or the one in the key file, made on first start.
pub fn load_or_create(config: &Config) -> AppResult<ServerKey> {
    if let Some(key) = &config.secret_key {
        return Ok(key.clone());
    }
    let path = &config.secret_key_file;
    if let Some(key) = read_key_file(path)? {
        return Ok(key);
    }
    create_key_file(path)
}

fn read_key_file(path: &Path) -> AppResult<Option<ServerKey>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => {
            return Err(AppError::Internal(format!(
                "SECRET_KEY: cannot read the key file {path:?}: {err}"
            )));
        }
    };
    warn_if_others_can_read(path);
    ServerKey::parse(&text).map(Some).map_err(|problem| {
        AppError::Internal(format!(
            "SECRET_KEY: the key file {path:?} does not hold a key ({problem})"
        ))
    })
}

/// Writes a new key to a private temporary file, then links it into place:
/// the link fails if another node sharing the folder made the key first, and
/// then that key is used. Nobody ever reads a half-written key file.
fn create_key_file(path: &Path) -> AppResult<ServerKey> {
    let failed = |what: &str, err: std::io::Error| {
        AppError::Internal(format!(
            "SECRET_KEY: cannot {what} the key file {path:?}: {err}"
        ))
    };
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(|e| failed("make the folder of", e))?;
    }
    let key = ServerKey::generate()?;
    let temporary = path.with_extension(format!("new-{}", std::process::id()));
    let written = private_file(&temporary)
        .and_then(|mut file| {
            file.write_all(format!("{}\n", key.to_hex()).as_bytes())?;
            file.sync_all()
        })
        .and_then(|()| std::fs::hard_link(&temporary, path));
    let _ = std::fs::remove_file(&temporary);
    match written {
        Ok(()) => {
            // The path only: the key itself is never logged.
            tracing::info!(key_file = ?path, "generated the server key; keep this file with the data");
            Ok(key)
        }
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {
            read_key_file(path)?.ok_or_else(|| failed("read", std::io::ErrorKind::NotFound.into()))
        }
        Err(err) => Err(failed("write", err)),
    }
}

#[cfg(unix)]
fn private_file(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
}

#[cfg(not(unix))]
fn private_file(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
}

#[cfg(unix)]
fn warn_if_others_can_read(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if let Ok(meta) = std::fs::metadata(path)
        && meta.permissions().mode() & 0o077 != 0
    {
        tracing::warn!(key_file = ?path, "the key file can be read by other users: chmod 600 it");
    }
}

#[cfg(not(unix))]
fn warn_if_others_can_read(_path: &Path) {}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn config_in(dir: &Path) -> Config {
        let mut config = Config::for_database("sqlite://unused.db");
        config.secret_key_file = dir.join("data").join("secret.key");
        config
    }

    #[test]
    fn a_key_is_made_once_privately_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let config = config_in(dir.path());
        let first = load_or_create(&config).unwrap();
        let again = load_or_create(&config).unwrap();
        assert_eq!(first, again, "a restart keeps the key");
        let text = std::fs::read_to_string(&config.secret_key_file).unwrap();
        assert_eq!(text.trim(), first.to_hex());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&config.secret_key_file)
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let leftovers: Vec<_> = std::fs::read_dir(dir.path().join("data"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(leftovers.len(), 1, "{leftovers:?}");
    }

    #[test]
    fn a_configured_key_wins_and_a_broken_key_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = config_in(dir.path());
        let configured = ServerKey::generate().unwrap();
        config.secret_key = Some(configured.clone());
        assert_eq!(load_or_create(&config).unwrap(), configured);
        assert!(
            !config.secret_key_file.exists(),
            "no file when the key is set"
        );

        config.secret_key = None;
        std::fs::create_dir_all(config.secret_key_file.parent().unwrap()).unwrap();
        std::fs::write(&config.secret_key_file, "not a key").unwrap();
        let refused = load_or_create(&config).unwrap_err().to_string();
        assert!(refused.contains("SECRET_KEY"), "{refused}");
        assert_eq!(
            std::fs::read_to_string(&config.secret_key_file).unwrap(),
            "not a key",
            "a broken key file is never replaced: the data may depend on it"
        );
    }

    #[test]
    fn a_bad_setting_is_named_and_not_repeated() {
        let cmd = clap::Command::new("test");
        let bad = "0123456789abcdef";
        let err = SecretKeyParser
            .parse_ref(&cmd, None, OsStr::new(bad))
            .unwrap_err()
            .to_string();
        assert!(err.contains("SECRET_KEY"), "{err}");
        assert!(!err.contains(bad), "{err}");
        let good = ServerKey::generate().unwrap();
        assert_eq!(
            SecretKeyParser
                .parse_ref(&cmd, None, OsStr::new(&good.to_hex()))
                .unwrap(),
            good
        );
    }
}
