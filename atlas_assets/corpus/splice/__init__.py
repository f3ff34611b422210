"""Spliced-token detection for eval-longgen-integrity-v1 (the ``splice`` scorer).

A *splice* is a token welded together from two fragments, the visible symptom of a
serving defect that corrupts roughly one token in several thousand: the token stream
jumps to another position (a KV-cache block or a batch neighbour mixed in), or a token is
repeated or lost at a streaming chunk boundary. On a JavaScript module the detector
reports identifiers and numbers that such damage produced (the contents of strings,
template text, comments and regular-expression literals are not judged, nor are lines of
prose a model wrote around the module).

The package, by job (each module's docstring has the details):

* `tokens`     -- the JavaScript tokenizer (`js_tokens`, `Token`) and `without_prose`;
* `roles`      -- what role each identifier plays (declarations, bindings, properties,
                  keys, references, package bindings) and the names JavaScript supplies
                  (`JS_KEYWORDS`, `JS_BUILTINS`, `NAMESPACE_MEMBERS`);
* `rules`      -- the weld, structural and number rules and their thresholds;
* `findings`   -- the finding type, `Splice` and `describe()`;
* `detection`  -- `find_splices`, which applies the rules by role, and
                  `judge_generation`, the item verdict (empty, prose-only and near-empty
                  replies fail before splices are looked for);
* `injection`  -- writing splices onto intact code (`inject_splice` for simulators and
                  perturbations, `make_cases` for the bench).

Standard library only (a dataset generator imports it through datasets/_gen/_bootstrap.py,
a bench with the repository on sys.path). The names below are re-exported for the existing
importers; new code may import from the module that does the job.
"""

from __future__ import annotations

from .detection import find_splices, judge_generation
from .findings import Splice
from .injection import inject_splice
from .roles import BUILTIN_METHOD_HEADS, JS_BUILTINS, JS_KEYWORDS, NAMESPACE_MEMBERS
from .tokens import IDENTIFIER_RE, Token, js_tokens, without_prose

__all__ = [
    "BUILTIN_METHOD_HEADS",
    "IDENTIFIER_RE",
    "JS_BUILTINS",
    "JS_KEYWORDS",
    "NAMESPACE_MEMBERS",
    "Splice",
    "Token",
    "find_splices",
    "inject_splice",
    "judge_generation",
    "js_tokens",
    "without_prose",
]
