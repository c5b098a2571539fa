# SPDX-License-Identifier: Apache-2.0
# entry.py - what guard.c calls (trusted code): the guard's entry points,
# gathered from its modules.  guard.c looks names up in this module
# alone, once loader.py has made every module of the guard.

from pyward_guard.batch import batch_test
from pyward_guard.common import attr_refused, init
from pyward_guard.policy import rewrite_policy
from pyward_guard.rewrite import code_blob
from pyward_guard.run import execute, next_call, precompile, prepare, ready
from pyward_guard.warmup import preload, static_imports, warmup

__all__ = (
    "attr_refused", "batch_test", "code_blob", "execute", "init", "next_call",
    "precompile", "preload", "prepare", "ready", "rewrite_policy",
    "static_imports", "warmup",
)
