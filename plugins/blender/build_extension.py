#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Builds the grip Blender extension zip for this platform, with Python's standard library only.

    python plugins/blender/build_extension.py --library target/release/libgrip.so --output grip.zip

Stages the add-on (this folder), the Python binding (plugins/python/grip, as the add-on's
``grip`` subpackage) and the native library beside it, writes this platform into the manifest's
``platforms``, checks the manifest against the rules Blender's extension platform applies
(required fields, id, versions, tagline, licence, permissions) and writes the zip as Blender's
own builder lays it out (the manifest at the root). When Blender's extension tool is at hand
(an installed ``bpy`` module, or ``--blender-ext``), it validates the zip too.
"""

import argparse
import glob
import importlib.util
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
BINDING = os.path.join(HERE, "..", "python", "grip")
ADDON_FILES = ("__init__.py", "blender_manifest.toml", "LICENSE")
MANIFEST = "blender_manifest.toml"

#: Platforms Blender's extension platform knows.
PLATFORMS = {"windows-x64", "windows-arm64", "macos-x64", "macos-arm64", "linux-x64"}
#: Permissions an extension may ask for.
PERMISSIONS = {"files", "network", "clipboard", "camera", "microphone"}
#: Longest tagline or permission reason Blender accepts.
TERSE_MAX = 64
REQUIRED = ("schema_version", "id", "version", "name", "tagline", "maintainer", "type", "license",
            "blender_version_min")
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$")
#: Files whose content is already compressed, stored as they are.
STORED = (".so", ".dylib", ".dll", ".whl", ".zip", ".gz", ".png")


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


def parse_toml(text):
    """The manifest as a dict: ``tomllib`` (Python ≥ 3.11), else the subset the manifest uses
    (``key = "string"`` or a one-line list of strings, ``[table]`` headers, whole-line comments)."""
    try:
        import tomllib
    except ImportError:
        tomllib = None
    if tomllib is not None:
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise SystemExit(f"{MANIFEST}: {e}") from None
    data, table = {}, None
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        header = re.fullmatch(r"\[([A-Za-z0-9_.]+)\]", line)
        if header:
            table = data
            for part in header[1].split("."):
                table = table.setdefault(part, {})
            continue
        pair = re.fullmatch(r'([A-Za-z0-9_]+)\s*=\s*(".*"|\[.*\])', line)
        if pair is None:
            raise SystemExit(f"{MANIFEST}:{number}: cannot read {line!r}")
        value = pair[2]
        strings = re.findall(r'"((?:[^"\\]|\\.)*)"', value)
        (table if table is not None else data)[pair[1]] = strings if value.startswith("[") else strings[0]
    return data


def terse_error(value):
    """Why ``value`` is not a valid tagline or permission reason, or None."""
    if not isinstance(value, str) or not value.strip() or value != value.strip():
        return "a non-empty string without surrounding spaces expected"
    if len(value) > TERSE_MAX:
        return f"at most {TERSE_MAX} characters expected, found {len(value)}"
    if any(ord(c) < 32 for c in value):
        return "control characters are not allowed"
    if not (value[-1].isalnum() or value[-1] in ")]}"):
        return "must not end with punctuation"
    return None


def manifest_errors(manifest):
    """Every rule of Blender's extension manifest (schema 1.0.0) that ``manifest`` breaks."""
    errors = [f"missing field '{key}'" for key in REQUIRED if key not in manifest]
    ident = manifest.get("id", "")
    if "id" in manifest and not (isinstance(ident, str) and ident.isidentifier() and "__" not in ident
                                 and not ident.startswith("_") and not ident.endswith("_")):
        errors.append(f"id {ident!r}: a Python identifier without leading, trailing or double '_' expected")
    if manifest.get("schema_version", "1.0.0") != "1.0.0":
        errors.append(f"schema_version {manifest['schema_version']!r}: 1.0.0 expected")
    if "version" in manifest and not SEMVER.match(str(manifest["version"])):
        errors.append(f"version {manifest['version']!r}: a semantic version expected")
    for key in ("blender_version_min", "blender_version_max"):
        value = manifest.get(key)
        if value is not None and not re.fullmatch(r"\d+\.\d+\.\d+", str(value)):
            errors.append(f"{key} {value!r}: three numbers separated by '.' expected")
    if manifest.get("type", "add-on") not in ("add-on", "theme"):
        errors.append(f"type {manifest['type']!r}: 'add-on' or 'theme' expected")
    if "tagline" in manifest and (why := terse_error(manifest["tagline"])):
        errors.append(f"tagline: {why}")
    for key in ("name", "maintainer"):
        if key in manifest and not (isinstance(manifest[key], str) and manifest[key].strip()):
            errors.append(f"{key}: a non-empty string expected")
    licences = manifest.get("license", [])
    if not (isinstance(licences, list) and licences and all(isinstance(x, str) and x.startswith("SPDX:")
                                                           for x in licences)):
        errors.append("license: a non-empty list of 'SPDX:<identifier>' strings expected")
    for p in manifest.get("platforms", []):
        if p not in PLATFORMS:
            errors.append(f"platforms: unknown platform {p!r} (one of {sorted(PLATFORMS)})")
    permissions = manifest.get("permissions", {})
    if not isinstance(permissions, dict):
        errors.append("permissions: a table of strings expected")
    else:
        for key, reason in permissions.items():
            if key not in PERMISSIONS:
                errors.append(f"permissions: unknown permission {key!r} (one of {sorted(PERMISSIONS)})")
            elif why := terse_error(reason):
                errors.append(f"permissions.{key}: {why}")
    return errors


def stage(folder, library):
    """Copies the extension's files into ``folder`` and sets the manifest's platform; returns
    the manifest as a dict."""
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
    path = os.path.join(folder, MANIFEST)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text, n = re.subn(r"(?m)^platforms = .*$", f'platforms = ["{blender_platform()}"]', text)
    if n != 1:
        raise SystemExit(f"{MANIFEST}: expected one 'platforms = ...' line")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return parse_toml(text)


def write_zip(folder, output):
    """Zips ``folder``'s files with paths relative to it (the manifest at the root), in sorted
    order with fixed timestamps, so the same inputs give the same bytes."""
    paths = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        paths += [os.path.join(root, f) for f in files if not f.startswith(".") and not f.endswith(".pyc")]
    partial = output + ".partial"
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for path in sorted(paths, key=lambda p: os.path.relpath(p, folder).replace(os.sep, "/")):
            name = os.path.relpath(path, folder).replace(os.sep, "/")
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name.endswith((".so", ".dylib")) else 0o644) << 16
            info.compress_type = zipfile.ZIP_STORED if name.endswith(STORED) else zipfile.ZIP_DEFLATED
            with open(path, "rb") as f:
                z.writestr(info, f.read())
    os.replace(partial, output)


def check_zip(output, manifest):
    """Reads the written zip back: it opens, its CRCs hold, the manifest is at the root and the
    add-on's entry points, the binding and the library are inside."""
    with zipfile.ZipFile(output) as z:
        bad = z.testzip()
        if bad is not None:
            raise SystemExit(f"{output}: entry {bad} is damaged")
        names = set(z.namelist())
        packed = parse_toml(z.read(MANIFEST).decode("utf-8"))
    needed = {MANIFEST, "__init__.py", "LICENSE", "grip/__init__.py", library_name()}
    missing = sorted(needed - names)
    if missing:
        raise SystemExit(f"{output}: missing {', '.join(missing)}")
    if packed != manifest:
        raise SystemExit(f"{output}: the packed manifest differs from the staged one")


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
    ap.add_argument("--blender-ext", help="Blender's bl_pkg/cli/blender_ext.py, to validate the zip with "
                                          "Blender's own tool too (default: the one in an installed bpy)")
    args = ap.parse_args()
    if not os.path.isfile(args.library):
        raise SystemExit(f"library not found: {args.library}")
    output = os.path.abspath(args.output)
    os.makedirs(os.path.dirname(output), exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="grip-extension-") as folder:
        manifest = stage(folder, args.library)
        errors = manifest_errors(manifest)
        if errors:
            raise SystemExit(f"{MANIFEST} is not valid:\n  " + "\n  ".join(errors))
        write_zip(folder, output)
    check_zip(output, manifest)
    tool = args.blender_ext or find_blender_ext()
    if tool is not None:
        run([sys.executable, tool, "validate", output])
        print(f"validated with {tool}")
    print(f"built {output} ({manifest['id']} {manifest['version']}, {blender_platform()})")


if __name__ == "__main__":
    main()
