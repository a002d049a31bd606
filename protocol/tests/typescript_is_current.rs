//! The web app's wire types are generated from this crate. This test fails when
//! `web/src/protocol/wire.ts` is stale; run it with UPDATE_PROTOCOL=1 to rewrite it.

use std::path::PathBuf;

#[test]
fn generated_typescript_matches_the_committed_file() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../web/src/protocol/wire.ts");
    let generated = protocol::generate_typescript();
    if std::env::var_os("UPDATE_PROTOCOL").is_some() {
        std::fs::create_dir_all(path.parent().unwrap_or(&path)).unwrap_or_default();
        std::fs::write(&path, &generated).unwrap_or_else(|e| panic!("write {path:?}: {e}"));
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "web/src/protocol/wire.ts is stale: run `UPDATE_PROTOCOL=1 cargo test -p protocol` and commit it"
    );
}
