"""libroofline for Python: lower bounds for LLM inference on GPUs, from the roofline model.

Every spreadsheet formula is a function here, named without its ROOFLINE_ prefix and in lower case
(ROOFLINE_DECODE_MS is ``roofline.decode_ms``), with the same arguments, units and defaults::

    >>> import roofline
    >>> round(roofline.decode_ms(8, 64, 4096, 3.35), 2)   # ms, 8B params, batch 64, 4096 ctx, 3.35 TB/s
    15.03

The functions are made at import time from the library's own formula table, through the C ABI
(ctypes, standard library only): this package computes nothing itself. Bad input raises
:class:`ArgumentError` (a ``ValueError``) whose message names the argument.

The library is found through the environment variable ``ROOFLINE_LIBRARY`` (a path to
libroofline.so), else the build tree beside this package (``build/c-api``), else the system's
installed ``libroofline.so.0``.
"""
import ctypes
import ctypes.util
import inspect
import os
from pathlib import Path

__all__ = ["RooflineError", "ArgumentError", "NoSolutionError", "formulas", "formula_table", "call",
           "library_version", "import_hf_config", "add_catalog"]


# ---- Loading the library -------------------------------------------------------------------------

def _candidates():
    env = os.environ.get("ROOFLINE_LIBRARY")
    if env:
        yield env
        return
    here = Path(__file__).resolve().parent
    for build in (here.parent.parent / "build" / "c-api", here.parent / "build" / "c-api"):
        yield str(build / "libroofline.so")
    yield "libroofline.so.0"
    found = ctypes.util.find_library("roofline")
    if found:
        yield found


def _load():
    errors = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            errors.append(f"{path}: no such file")
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            errors.append(f"{path}: {e}")
    raise ImportError("roofline: cannot load libroofline (set ROOFLINE_LIBRARY to its path):\n  "
                      + "\n  ".join(errors))


_lib = _load()

NUMBER, TEXT, ARRAY, REST = 0, 1, 2, 3


class _ArgInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("unit", ctypes.c_char_p), ("type", ctypes.c_int),
                ("optional", ctypes.c_int), ("default_number", ctypes.c_double),
                ("default_text", ctypes.c_char_p), ("description_en", ctypes.c_char_p),
                ("description_zh", ctypes.c_char_p), ("default_label", ctypes.c_char_p)]


class _FormulaInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("c_name", ctypes.c_char_p), ("group", ctypes.c_char_p),
                ("result_type", ctypes.c_int), ("result_unit", ctypes.c_char_p),
                ("description_en", ctypes.c_char_p), ("description_zh", ctypes.c_char_p),
                ("arg_count", ctypes.c_size_t), ("args", ctypes.POINTER(ctypes.POINTER(_ArgInfo))),
                ("example", ctypes.c_char_p)]


class _Value(ctypes.Structure):
    _fields_ = [("number", ctypes.c_double), ("text", ctypes.c_char_p)]


_lib.roofline_version.restype = ctypes.c_char_p
_lib.roofline_status_string.restype = ctypes.c_char_p
_lib.roofline_status_string.argtypes = [ctypes.c_int]
_lib.roofline_errmsg.restype = ctypes.c_char_p
_lib.roofline_errarg.restype = ctypes.c_char_p
_lib.roofline_formula_count.restype = ctypes.c_size_t
_lib.roofline_formula_at.restype = ctypes.POINTER(_FormulaInfo)
_lib.roofline_formula_at.argtypes = [ctypes.c_size_t]
_lib.roofline_call.argtypes = [ctypes.c_char_p, ctypes.POINTER(_Value), ctypes.c_size_t,
                               ctypes.POINTER(ctypes.c_void_p)]
_lib.roofline_array_rows.argtypes = [ctypes.c_void_p]
_lib.roofline_array_rows.restype = ctypes.c_size_t
_lib.roofline_array_cols.argtypes = [ctypes.c_void_p]
_lib.roofline_array_cols.restype = ctypes.c_size_t
_lib.roofline_array_is_text.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t]
_lib.roofline_array_number.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t]
_lib.roofline_array_number.restype = ctypes.c_double
_lib.roofline_array_text.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t]
_lib.roofline_array_text.restype = ctypes.c_char_p
_lib.roofline_array_free.argtypes = [ctypes.c_void_p]
_lib.roofline_model_import_hf_config.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
_lib.roofline_catalog_add_json.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t)]


def library_version():
    """The version of the loaded libroofline, "MAJOR.MINOR.PATCH"."""
    return _lib.roofline_version().decode()


# ---- Errors ---------------------------------------------------------------------------------------

class RooflineError(Exception):
    """A formula gave no result. ``status`` is the C status name (e.g. "ROOFLINE_ERROR_ARGUMENT"),
    ``code`` its number, ``argument`` the argument at fault ("" when none is); the message is the
    library's."""

    def __init__(self, code, message, argument):
        super().__init__(message)
        self.code = code
        self.status = _lib.roofline_status_string(code).decode()
        self.argument = argument


class ArgumentError(RooflineError, ValueError):
    """An argument is NaN, infinite, outside its domain or of the wrong type."""


class NoSolutionError(RooflineError):
    """Valid arguments, but no answer (e.g. no batch is compute bound), or a result too large."""


_ERRORS = {1: ArgumentError, 2: NoSolutionError, 3: NoSolutionError, 5: ArgumentError, 6: ArgumentError, 9: ArgumentError}


# ---- Formulas -------------------------------------------------------------------------------------

def _call(name, args):
    values = (_Value * max(1, len(args)))()
    for i, a in enumerate(args):
        if isinstance(a, str):
            values[i].text = a.encode()
        elif isinstance(a, bool) or not isinstance(a, (int, float)):
            raise ArgumentError(1, f"{name}: argument {i + 1} must be a number or a text (got {a!r})", "")
        else:
            values[i].number = float(a)
    out = ctypes.c_void_p()
    code = _lib.roofline_call(name.encode(), values, len(args), ctypes.byref(out))
    if code != 0:
        raise _ERRORS.get(code, RooflineError)(code, _lib.roofline_errmsg().decode(), _lib.roofline_errarg().decode())
    try:
        rows, cols = _lib.roofline_array_rows(out), _lib.roofline_array_cols(out)

        def cell(r, c):
            if _lib.roofline_array_is_text(out, r, c):
                return _lib.roofline_array_text(out, r, c).decode()
            return _lib.roofline_array_number(out, r, c)

        if rows == 1 and cols == 1:
            return cell(0, 0)
        return [tuple(cell(r, c) for c in range(cols)) for r in range(rows)]
    finally:
        _lib.roofline_array_free(out)


def _make(info):
    name = info.name.decode()
    args = [info.args[i].contents for i in range(info.arg_count)]
    params, lines = [], []
    for a in args:
        default = inspect.Parameter.empty
        if a.type == REST:  # any number of further arguments: *arguments
            params.append(inspect.Parameter(a.name.decode(), inspect.Parameter.VAR_POSITIONAL))
            lines.append(f"    *{a.name.decode()} ({a.unit.decode()}): {a.description_en.decode()}")
            continue
        if a.optional:
            default = a.default_text.decode() if a.type == TEXT else a.default_number
        params.append(inspect.Parameter(a.name.decode(), inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default))
        unit = a.unit.decode()
        shown = _text(a.default_label) if a.default_label else repr(default)
        lines.append(f"    {a.name.decode()} ({unit}{', default ' + shown if a.optional else ''}): "
                     f"{a.description_en.decode()}")
    signature = inspect.Signature(params)
    result = {NUMBER: "float", TEXT: "str", ARRAY: "list of row tuples"}[info.result_type]

    def formula(*a, **kw):
        bound = signature.bind(*a, **kw)
        bound.apply_defaults()
        return _call(name, list(bound.args))

    formula.__name__ = formula.__qualname__ = name[len("ROOFLINE_"):].lower()
    formula.__signature__ = signature
    formula.__doc__ = (f"{info.description_en.decode()}\n\n{info.description_zh.decode()}\n\n"
                       f"The spreadsheet formula {name}; the C function {info.c_name.decode()}.\n\nArgs:\n"
                       + "\n".join(lines)
                       + f"\n\nReturns:\n    {result}, {info.result_unit.decode()}\n\nExample (spreadsheet):\n"
                       f"    ={info.example.decode()}\n\nRaises:\n    ArgumentError: bad input; the message names the argument.\n"
                       "    NoSolutionError: valid input without an answer.\n")
    return formula


def _json_text(source):
    """A dict, a JSON text, or a path to a JSON file, as JSON text. Reading the file is this host's job."""
    import json
    if isinstance(source, dict):
        return json.dumps(source)
    if isinstance(source, os.PathLike) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        return Path(source).read_text(encoding="utf-8")
    return source


def _check(code):
    if code != 0:
        raise _ERRORS.get(code, RooflineError)(code, _lib.roofline_errmsg().decode(), _lib.roofline_errarg().decode())


def import_hf_config(model_id, config):
    """Adds the model ``model_id`` from a Hugging Face config.json (a dict, its JSON text, or its path):
    usable wherever a catalog id is, e.g. ``step_ms(model_id, "h100-sxm", 64, 4096)``."""
    _check(_lib.roofline_model_import_hf_config(model_id.encode(), _json_text(config).encode()))


def add_catalog(catalog):
    """Adds the GPUs and models of a catalog of your own (a dict, its JSON text, or its path) in the
    format of libroofline/catalog/*.json; returns how many entries were added."""
    added = ctypes.c_size_t(0)
    _check(_lib.roofline_catalog_add_json(_json_text(catalog).encode(), ctypes.byref(added)))
    return added.value


def formulas():
    """The names of the Python functions, one per formula, in the library's order."""
    return list(_FUNCTIONS)


def call(formula, *args):
    """Calls a formula by its spreadsheet name (case-insensitive), e.g. ``call("ROOFLINE_BALANCE", 989, 3.35)``;
    trailing optional arguments may be left out."""
    return _call(formula, list(args))


def _text(p):
    return p.decode() if p is not None else None


def formula_table():
    """The library's formula table: one dict per formula with its ``name``, ``function`` (the Python
    name), ``c_name``, ``group``, ``result_type`` (NUMBER, TEXT or ARRAY), ``result_unit``,
    ``description_en``, ``description_zh``, ``example`` and ``args``, each a dict with ``name``,
    ``unit``, ``type``, ``optional``, ``default``, ``description_en`` and ``description_zh``."""
    table = []
    for i in range(_lib.roofline_formula_count()):
        f = _lib.roofline_formula_at(i).contents
        args = []
        for j in range(f.arg_count):
            a = f.args[j].contents
            default = None
            if a.optional:
                default = _text(a.default_text) if a.type == TEXT else a.default_number
            args.append({"name": _text(a.name), "unit": _text(a.unit), "type": a.type, "optional": bool(a.optional),
                         "default": default, "default_label": _text(a.default_label),
                         "description_en": _text(a.description_en), "description_zh": _text(a.description_zh)})
        name = _text(f.name)
        table.append({"name": name, "function": name[len("ROOFLINE_"):].lower(), "c_name": _text(f.c_name),
                      "group": _text(f.group), "result_type": f.result_type, "result_unit": _text(f.result_unit),
                      "description_en": _text(f.description_en), "description_zh": _text(f.description_zh),
                      "example": _text(f.example), "args": args})
    return table


_FUNCTIONS = {}
for _i in range(_lib.roofline_formula_count()):
    _f = _make(_lib.roofline_formula_at(_i).contents)
    _FUNCTIONS[_f.__name__] = _f
    globals()[_f.__name__] = _f
    __all__.append(_f.__name__)
del _i, _f
