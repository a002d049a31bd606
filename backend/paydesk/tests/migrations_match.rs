//! The SQLite and PostgreSQL migrations must define the same schema: both
//! are run on fresh databases and their catalogues compared (tables,
//! columns with their kind of type and nullability, primary keys, and
//! indexes with their columns and uniqueness). Runs when
//! `TEST_DATABASE_URL` names a PostgreSQL server, as in CI.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use paydesk::store::Db;
use sqlx::Row;

/// One table as both databases can describe it.
#[derive(Debug, PartialEq, Eq)]
struct Table {
    /// Column name → (kind of type, nullable).
    columns: BTreeMap<String, (&'static str, bool)>,
    primary_key: Vec<String>,
    /// Index name → (columns in order, unique).
    indexes: BTreeMap<String, (Vec<String>, bool)>,
}

type Schema = BTreeMap<String, Table>;

/// The kind of a declared type, as far as `sqlx::Any` tells them apart.
fn kind(declared: &str) -> &'static str {
    let declared = declared.to_ascii_lowercase();
    match declared.as_str() {
        "integer" | "bigint" | "int" | "int8" | "int4" | "smallint" => "integer",
        "text" | "character varying" | "varchar" => "text",
        "blob" | "bytea" => "bytes",
        "real" | "double precision" | "float8" => "real",
        "boolean" | "bool" => "boolean",
        _ => "other",
    }
}

async fn sqlite_schema(db: &Db) -> Schema {
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' \
         AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx_%' ORDER BY name",
    )
    .fetch_all(&db.pool)
    .await
    .unwrap();
    let mut schema = Schema::new();
    for table in tables {
        let columns = sqlx::query(
            "SELECT name, type, \"notnull\", pk FROM pragma_table_info($1) ORDER BY cid",
        )
        .bind(&table)
        .fetch_all(&db.pool)
        .await
        .unwrap();
        let mut keyed: Vec<(i64, String)> = Vec::new();
        let mut described = BTreeMap::new();
        for column in &columns {
            let name: String = column.get("name");
            let pk: i64 = column.get("pk");
            let not_null: i64 = column.get("notnull");
            if pk > 0 {
                keyed.push((pk, name.clone()));
            }
            // A primary key column is never null on PostgreSQL.
            let nullable = not_null == 0 && pk == 0;
            described.insert(name, (kind(column.get("type")), nullable));
        }
        keyed.sort();
        // Indexes the migrations create by name (not those SQLite makes
        // itself for a primary key or a UNIQUE constraint).
        let index_rows = sqlx::query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = $1 AND sql IS NOT NULL",
        )
        .bind(&table)
        .fetch_all(&db.pool)
        .await
        .unwrap();
        let mut indexes = BTreeMap::new();
        for row in index_rows {
            let name: String = row.get("name");
            let columns: Vec<String> =
                sqlx::query_scalar("SELECT name FROM pragma_index_info($1) ORDER BY seqno")
                    .bind(&name)
                    .fetch_all(&db.pool)
                    .await
                    .unwrap();
            let unique: i64 =
                sqlx::query_scalar("SELECT \"unique\" FROM pragma_index_list($1) WHERE name = $2")
                    .bind(&table)
                    .bind(&name)
                    .fetch_one(&db.pool)
                    .await
                    .unwrap();
            indexes.insert(name, (columns, unique == 1));
        }
        schema.insert(
            table,
            Table {
                columns: described,
                primary_key: keyed.into_iter().map(|(_, name)| name).collect(),
                indexes,
            },
        );
    }
    schema
}

async fn postgres_schema(db: &Db) -> Schema {
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables \
         WHERE table_schema = 'public' AND table_type = 'BASE TABLE' \
         AND table_name NOT LIKE '\\_sqlx\\_%' ORDER BY table_name",
    )
    .fetch_all(&db.pool)
    .await
    .unwrap();
    let mut schema = Schema::new();
    for table in tables {
        let columns = sqlx::query(
            "SELECT column_name::text AS name, data_type::text AS type, is_nullable::text AS nullable \
             FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1",
        )
        .bind(&table)
        .fetch_all(&db.pool)
        .await
        .unwrap();
        let described = columns
            .iter()
            .map(|c| {
                let nullable: String = c.get("nullable");
                (
                    c.get::<String, _>("name"),
                    (kind(c.get("type")), nullable == "YES"),
                )
            })
            .collect();
        let primary_key: Vec<String> = sqlx::query_scalar(
            "SELECT a.attname::text FROM pg_index i \
             JOIN pg_class t ON t.oid = i.indrelid \
             JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n) ON true \
             JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum \
             WHERE i.indisprimary AND t.relname = $1 AND t.relnamespace = 'public'::regnamespace \
             ORDER BY k.n",
        )
        .bind(&table)
        .fetch_all(&db.pool)
        .await
        .unwrap();
        // Indexes created by name: not those backing a constraint.
        let index_rows = sqlx::query(
            "SELECT ic.relname::text AS name, i.indisunique AS is_unique, i.indexrelid::bigint AS oid \
             FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid \
             JOIN pg_class t ON t.oid = i.indrelid \
             WHERE t.relname = $1 AND t.relnamespace = 'public'::regnamespace \
             AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)",
        )
        .bind(&table)
        .fetch_all(&db.pool)
        .await
        .unwrap();
        let mut indexes = BTreeMap::new();
        for row in index_rows {
            let oid: i64 = row.get("oid");
            let columns: Vec<String> = sqlx::query_scalar(
                "SELECT a.attname::text FROM pg_index i \
                 JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n) ON true \
                 JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum \
                 WHERE i.indexrelid = $1::oid ORDER BY k.n",
            )
            .bind(oid)
            .fetch_all(&db.pool)
            .await
            .unwrap();
            indexes.insert(
                row.get::<String, _>("name"),
                (columns, row.get::<bool, _>("is_unique")),
            );
        }
        schema.insert(
            table,
            Table {
                columns: described,
                primary_key,
                indexes,
            },
        );
    }
    schema
}

/// A fresh PostgreSQL database on the server of `base`.
async fn fresh_postgres(base: &str) -> String {
    let admin = sqlx::AnyPool::connect(base).await.unwrap();
    let name = format!(
        "schema_{}",
        paydesk::ids::new_id("db").replace('-', "_").to_lowercase()
    );
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
    let (server, _) = base.rsplit_once('/').unwrap();
    format!("{server}/{name}")
}

#[tokio::test]
async fn sqlite_and_postgres_migrations_define_the_same_schema() {
    let Some(base) = std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty())
    else {
        eprintln!("TEST_DATABASE_URL is not set: nothing to compare SQLite's schema with");
        return;
    };
    sqlx::any::install_default_drivers();
    let dir = tempfile::tempdir().unwrap();
    let sqlite = Db::connect(&format!(
        "sqlite://{}",
        dir.path().join("schema.db").display()
    ))
    .await
    .unwrap();
    sqlite.migrate().await.unwrap();
    let postgres = Db::connect(&fresh_postgres(&base).await).await.unwrap();
    postgres.migrate().await.unwrap();

    let (lite, pg) = (
        sqlite_schema(&sqlite).await,
        postgres_schema(&postgres).await,
    );
    assert!(lite.len() > 20, "SQLite's catalogue was read: {lite:?}");
    assert_eq!(
        lite.keys().collect::<Vec<_>>(),
        pg.keys().collect::<Vec<_>>(),
        "the same tables"
    );
    for (name, table) in &lite {
        assert_eq!(
            table, &pg[name],
            "table {name}: SQLite (left) and PostgreSQL (right)"
        );
    }
}
