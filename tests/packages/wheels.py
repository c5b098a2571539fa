# SPDX-License-Identifier: Apache-2.0
"""wheels.py - wheels made here, offline, for the package-set tests:
build() runs setuptools and wheel (Debian's python3-setuptools and
python3-wheel) through `pip wheel` on a source tree written from a dict;
craft() writes a wheel file by hand (what setuptools would never make: a
RECORD that points outside the install directory, a .pth file at the
top).  pip_env() is the environment pip runs in: no index, no
configuration of the host's."""

import base64
import hashlib
import os
import subprocess
import zipfile


def pip_env(extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update({"PIP_CONFIG_FILE": os.devnull, "PIP_NO_INDEX": "1",
                "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    env.update(extra or {})
    return env


def build(python, work, name, version, files):
    """The wheel of NAME VERSION whose modules are FILES ({path: text};
    a top-level .c file is an extension module, compiled), built by
    setuptools under WORK; its path."""
    src = os.path.join(work, "src", name)
    os.makedirs(src, exist_ok=True)
    pkgs = sorted({p.split("/")[0] for p in files if "/" in p})
    mods = sorted(p[:-3] for p in files if "/" not in p and p.endswith(".py"))
    # A C file at the top: an extension module of that name.
    exts = [f"Extension({p[:-2]!r}, [{p!r}])" for p in sorted(files)
            if "/" not in p and p.endswith(".c")]
    for path, text in files.items():
        full = os.path.join(src, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)
    with open(os.path.join(src, "setup.py"), "w", encoding="utf-8") as f:
        f.write("from setuptools import Extension, setup\n"
                f"setup(name={name!r}, version={version!r}, "
                f"packages={pkgs!r}, py_modules={mods!r}, "
                f"ext_modules=[{', '.join(exts)}])\n")
    out = os.path.join(work, "wheels")
    subprocess.run([python, "-m", "pip", "wheel", "--no-deps",
                    "--no-build-isolation", "--no-index", "-q", "-w", out,
                    src], check=True, env=pip_env(),
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    norm = name.replace("-", "_")
    for f in os.listdir(out):
        if f.startswith(f"{norm}-{version}-") and f.endswith(".whl"):
            return os.path.join(out, f)
    raise RuntimeError(f"no wheel for {name} {version}")


def _hash(data):
    d = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return "sha256=" + d.rstrip(b"=").decode()


def craft(out, name, version, files):
    """A wheel NAME-VERSION-py3-none-any.whl in OUT holding FILES
    ({archive path: text}, any path: "../x" too), with its metadata and a
    RECORD listing them all; its path."""
    norm = name.replace("-", "_")
    info = f"{norm}-{version}.dist-info"
    meta = {
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\n"
                            f"Version: {version}\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: pyward-tests\n"
                         "Root-Is-Purelib: true\nTag: py3-none-any\n",
    }
    entries = {**files, **meta}
    record = "".join(f"{p},{_hash(t.encode())},{len(t.encode())}\n"
                     for p, t in entries.items())
    record += f"{info}/RECORD,,\n"
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, f"{norm}-{version}-py3-none-any.whl")
    with zipfile.ZipFile(path, "w") as z:
        for p, t in entries.items():
            z.writestr(p, t)
        z.writestr(f"{info}/RECORD", record)
    return path
