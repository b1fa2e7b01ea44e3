//! Scratch scene files for the tests that parse and export `[solver]` tables.

use grip::io::obj::write_obj;
use std::path::PathBuf;

/// A scratch directory holding `cloth.obj` (a 2 × 2 quad of two triangles), removed on drop.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A fresh directory named after `tag` and the process.
    pub fn new(tag: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("grip-scene-file-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        let p = [[0.0, 0.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 1.0], [0.0, 1.0, 1.0]];
        write_obj(&dir.join("cloth.obj"), &p, &[[0, 1, 2], [0, 2, 3]]).expect("write cloth.obj");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A scene of one shell whose `[solver]` table holds `solver` (TOML lines).
pub fn scene_text(solver: &str) -> String {
    format!("[solver]\n{solver}\n[output]\nframes = 2\n[[object]]\nkind = \"shell\"\nmesh = \"cloth.obj\"\n")
}
