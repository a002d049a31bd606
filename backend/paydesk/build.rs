//! Embeds the SQL migrations (`migrations/sqlite`, `migrations/postgres`)
//! in the crate for `store::migrations`: one entry per file, in version
//! order, named the way sqlx names a migration file (`0007_import_speed.sql`
//! is version 7, "import speed"). A new migration needs only its file.

use std::error::Error;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() -> Result<(), Box<dyn Error>> {
    let manifest =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").ok_or("no CARGO_MANIFEST_DIR")?);
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("no OUT_DIR")?);
    for backend in ["sqlite", "postgres"] {
        let dir = manifest
            .join("../../migrations")
            .join(backend)
            .canonicalize()?;
        println!("cargo:rerun-if-changed={}", dir.display());
        std::fs::write(out.join(format!("{backend}_migrations.rs")), listing(&dir)?)?;
    }
    Ok(())
}

/// `&[(7, "import speed", include_str!("…/0007_import_speed.sql")), …]`.
fn listing(dir: &Path) -> Result<String, Box<dyn Error>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|ext| ext == "sql") {
            files.push(path);
        }
    }
    files.sort();
    let mut listing = String::from("&[\n");
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or("a file name that is not UTF-8")?;
        let (version, rest) = name
            .split_once('_')
            .ok_or_else(|| format!("{name}: expected <version>_<description>.sql"))?;
        let version: i64 = version
            .parse()
            .map_err(|_| format!("{name}: the version is not a number"))?;
        if rest.ends_with(".up.sql") || rest.ends_with(".down.sql") {
            return Err(
                format!("{name}: migrations here run forwards only, as plain .sql files").into(),
            );
        }
        let description = rest.trim_end_matches(".sql").replace('_', " ");
        let path = path.display().to_string();
        writeln!(
            listing,
            "    ({version}, {description:?}, include_str!({path:?})),"
        )?;
    }
    listing.push(']');
    Ok(listing)
}
