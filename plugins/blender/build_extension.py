#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Builds the grip Blender extension zip for this platform.

    python plugins/blender/build_extension.py --library target/release/libgrip.so --output grip.zip

Stages the add-on (this folder), the Python binding (plugins/python/grip, as the add-on's
``grip`` subpackage) and the native library beside it, sets the manifest's ``platforms`` to this
platform, then runs Blender's own extension builder (``blender_ext.py build``, found in the
installed ``bpy`` module or given with ``--blender-ext``) and validates the zip with it.
"""

import argparse
import importlib.util
import glob
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BINDING = os.path.join(HERE, "..", "python", "grip")
ADDON_FILES = ("__init__.py", "blender_manifest.toml", "LICENSE")


def blender_platform():
    """This machine's platform in Blender's extension naming (e.g. linux-x64)."""
    system = {"linux": "linux", "darwin": "macos", "win32": "windows"}.get(sys.platform)
    machine = platform.machine().lower()
    arch = {"x86_64": "x64", "amd64": "x64", "arm64": "arm64", "aarch64": "arm64"}.get(machine)
    if system is None or arch is None:
        raise SystemExit(f"unsupported platform {sys.platform}/{machine}")
    return f"{system}-{arch}"


def library_name():
    """The grip library's file name on this platform (as the binding looks for it)."""
    return {"win32": "grip.dll", "darwin": "libgrip.dylib"}.get(sys.platform, "libgrip.so")


def find_blender_ext():
    """Blender's extension command-line tool inside the installed bpy module, or None."""
    spec = importlib.util.find_spec("bpy")
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        hits = glob.glob(os.path.join(root, "*", "scripts", "addons_core", "bl_pkg", "cli", "blender_ext.py"))
        if hits:
            return sorted(hits)[-1]
    return None


def stage(folder, library):
    """Copies the extension's files into ``folder``."""
    for name in os.listdir(HERE):
        if name.endswith(".py") and name != os.path.basename(__file__) or name in ADDON_FILES:
            shutil.copy2(os.path.join(HERE, name), folder)
    shutil.copytree(BINDING, os.path.join(folder, "grip"), ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    staged = os.path.join(folder, library_name())
    shutil.copy2(library, staged)
    strip = shutil.which("strip")
    if strip and sys.platform != "win32":
        # Release builds carry debug info (profile.release.debug = 1): drop it from the bundle.
        run([strip, "-S" if sys.platform == "darwin" else "--strip-debug", staged])
    manifest = os.path.join(folder, "blender_manifest.toml")
    with open(manifest, encoding="utf-8") as f:
        text = f.read()
    text, n = re.subn(r"(?m)^platforms = .*$", f'platforms = ["{blender_platform()}"]', text)
    if n != 1:
        raise SystemExit("blender_manifest.toml: expected one 'platforms = ...' line")
    with open(manifest, "w", encoding="utf-8") as f:
        f.write(text)


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(out.stdout)
    sys.stderr.write(out.stderr)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed with exit code {out.returncode}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--library", required=True, help="the built grip library (libgrip.so, ...)")
    ap.add_argument("--output", required=True, help="the zip to write")
    ap.add_argument("--blender-ext", help="Blender's bl_pkg/cli/blender_ext.py (default: from bpy)")
    args = ap.parse_args()
    tool = args.blender_ext or find_blender_ext()
    if tool is None:
        raise SystemExit("Blender's extension tool not found: install bpy, or pass --blender-ext "
                         "<blender>/<version>/scripts/addons_core/bl_pkg/cli/blender_ext.py")
    if not os.path.isfile(args.library):
        raise SystemExit(f"library not found: {args.library}")
    output = os.path.abspath(args.output)
    os.makedirs(os.path.dirname(output), exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="grip-extension-") as folder:
        stage(folder, args.library)
        if os.path.exists(output):
            os.remove(output)
        run([sys.executable, tool, "build", "--source-dir", folder, "--output-filepath", output])
    run([sys.executable, tool, "validate", output])
    print(f"built {output}")


if __name__ == "__main__":
    main()
