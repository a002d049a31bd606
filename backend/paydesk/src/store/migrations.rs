//! The schema's migrations, embedded in the binary by `build.rs` from
//! `migrations/sqlite` and `migrations/postgres`. Each keeps the version,
//! description and checksum (SHA-384 of its text) sqlx gives a migration
//! file, so databases migrated by earlier builds match.

use std::sync::LazyLock;

use sqlx::SqlSafeStr;
use sqlx::migrate::{Migration, MigrationType, Migrator};

type Embedded = &'static [(i64, &'static str, &'static str)];

const SQLITE: Embedded = include!(concat!(env!("OUT_DIR"), "/sqlite_migrations.rs"));
const POSTGRES: Embedded = include!(concat!(env!("OUT_DIR"), "/postgres_migrations.rs"));

pub(super) static SQLITE_MIGRATIONS: LazyLock<Migrator> = LazyLock::new(|| migrator(SQLITE));
pub(super) static POSTGRES_MIGRATIONS: LazyLock<Migrator> = LazyLock::new(|| migrator(POSTGRES));

fn migrator(files: Embedded) -> Migrator {
    Migrator::with_migrations(
        files
            .iter()
            .map(|&(version, description, sql)| {
                // A file that must run outside a transaction says so on its first line.
                let no_tx = sql.starts_with("-- no-transaction");
                Migration::new(
                    version,
                    description.into(),
                    MigrationType::Simple,
                    sql.into_sql_str(),
                    no_tx,
                )
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_is_embedded_in_version_order_with_sqlxs_name() {
        for (files, dir) in [(SQLITE, "sqlite"), (POSTGRES, "postgres")] {
            let on_disk = std::fs::read_dir(format!(
                "{}/../../migrations/{dir}",
                env!("CARGO_MANIFEST_DIR")
            ))
            .map(|entries| entries.filter_map(Result::ok).count())
            .unwrap_or_default();
            assert_eq!(files.len(), on_disk, "{dir}");
            assert!(files.windows(2).all(|pair| pair[0].0 < pair[1].0), "{dir}");
        }
        let spine = &SQLITE_MIGRATIONS.migrations[0];
        assert_eq!((spine.version, spine.description.as_ref()), (1, "spine"));
        use sha2::Digest;
        assert_eq!(
            spine.checksum.as_ref(),
            sha2::Sha384::digest(SQLITE[0].2).as_slice()
        );
    }
}
