//! Lists the page's files (`web/`, every file in it and its folders) for `src/web/assets.rs`,
//! which embeds them: a file added to the page is served without touching the server's code.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    let mut out = String::from("/// The page's files: their path under `web/` and their bytes.\n");
    out.push_str("pub const FILES: &[(&str, &[u8])] = &[\n");
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
        let name = file
            .strip_prefix(&root)
            .expect("under web/")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        writeln!(
            out,
            "    ({name:?}, include_bytes!({:?})),",
            file.display().to_string()
        )
        .expect("a String takes any write");
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(dest.join("web_files.rs"), out).expect("OUT_DIR is writable");
}

/// Every file under `dir`, hidden ones (editor and system files) left out.
fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).expect("apps/reversi/web is readable");
    for entry in entries {
        let entry = entry.expect("a readable folder entry");
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            println!("cargo:rerun-if-changed={}", path.display());
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}
