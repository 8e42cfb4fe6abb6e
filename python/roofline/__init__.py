"""libroofline for Python: lower bounds for LLM inference on GPUs, from the roofline model.

Every spreadsheet formula is a function here, named without its ROOFLINE_ prefix and in lower case
(ROOFLINE_DECODE_MS is ``roofline.decode_ms``), with the same arguments, units and defaults::

    >>> import roofline
    >>> round(roofline.decode_ms(8, 64, 4096, 3.35), 2)   # ms, 8B params, batch 64, 4096 ctx, 3.35 TB/s
    15.03

The functions are made at import time from the library's own formula table, through the C ABI
(ctypes, standard library only): this package computes nothing itself. Bad input raises
:class:`ArgumentError` (a ``ValueError``) whose message names the argument.

Sweeps: every argument of a formula whose result is a number may be a sequence (list, tuple, range,
nested for more axes) or a numpy array instead of one value, numbers and texts alike; the arguments
broadcast as numpy broadcasts them (axes aligned from the right, each of one length or 1) and the
result is an array of that shape, each element the formula's result for those arguments::

    >>> roofline.decode_ms(8, [1, 8, 64], 4096, 3.35)                  # three batches
    [4.936379376716418, 6.058199192835821, 15.032757721791045]
    >>> roofline.decode_ms(8, [[1], [64]], [0, 4096], 3.35)            # batch down, ctx across
    [[4.776119402985075, 4.936379376716418], [4.776119402985075, 15.032757721791045]]
    >>> [round(ms, 2) for ms in roofline.step_ms("llama-3-8b", ["h100-sxm", "a100-sxm-80gb"], 64, 4096)]
    [14.8, 24.31]

- The result is a numpy array (float64) when any argument is a numpy array (or has ``__array__``),
  else nested lists. numpy is optional: it is imported only when an argument is a numpy array.
- Shapes that do not broadcast raise :class:`ArgumentError` naming the argument. A bad element
  raises the error the scalar call would raise (``ArgumentError``, ``NoSolutionError``) for the first
  element that fails, naming the argument, with its ``index`` in the result (an int for one axis, a
  tuple for more), also at the end of the message: ``... must be a whole number >= 1 (got 0.5) (at
  index 1)``.
- One call of the C ABI computes the whole sweep (``roofline_call_many()``): a million elements of
  ``step_ms`` take well under a second, where a Python loop of scalar calls takes about 20 s.
- Formulas whose result is a text or an array (``bound``, ``roof``, the breakdowns, ``why``) take
  single values only; a sequence raises :class:`ArgumentError`.

Calibration: ``calibrate(rows, base_profile="typical")`` (ROOFLINE_CALIBRATE) fits a profile on measured rows,
each ``(model, gpu, weight_dtype, kv_dtype, tp, batch, context, metric, value)`` with metric ``"step_ms"`` or
``"ttft_ms"`` and ``None`` or ``""`` for a default; it returns the profile as a text that every ``profile``
argument takes::

    >>> rows = [("llama-3-8b", "h200", "bf16", "bf16", 1, b, c, "step_ms", ms)
    ...         for b, c, ms in [(1, 1024, 6.0155), (1, 4096, 7.1348), (8, 4096, 7.4356)]]
    >>> fitted = roofline.calibrate(rows)
    >>> fitted.split(":")[0]
    'fit(typical; n=3; loo=14.3%; mdape=6.9%; fitted step_ms)'
    >>> round(roofline.step_ms("llama-3-8b", "h200", 8, 4096, profile=fitted), 2)
    7.44

Your own models and GPUs: on import the package loads the user folder that the Calc add-in and the
CLI read, ``$XDG_CONFIG_HOME/libroofline`` (else ``~/.config/libroofline``): every
``catalog/*.json`` (the format of libroofline/catalog/*.json) and every ``models/<id>.json`` (a
Hugging Face config.json; the file's name is the model's id). A file there that does not load is a
``RuntimeWarning`` naming it; the others load. Set ``ROOFLINE_NO_USER_CATALOG=1`` to skip the folder
on import; :func:`load_user_catalog` loads it, or another folder, again. :func:`import_hf_config` and
:func:`add_catalog` add a model or a catalog from Python.

The library is found through the environment variable ``ROOFLINE_LIBRARY`` (a path to
libroofline.so), else, for the package of a source checkout, the build tree (``build/c-api``), else
the system's installed ``libroofline.so.0``.
"""
# The standard library under private names: the package's namespace is its API alone (__all__).
import ctypes as _ctypes
import ctypes.util as _ctypes_util
import inspect as _inspect
import itertools as _itertools
import numbers as _numbers
import os as _os
from pathlib import Path as _Path

__all__ = ["RooflineError", "ArgumentError", "NoSolutionError", "formulas", "formula_table", "call",
           "library_version", "import_hf_config", "add_catalog", "load_user_catalog", "NUMBER", "TEXT", "ARRAY", "REST",
           "TABLE"]


# ---- Loading the library -------------------------------------------------------------------------

def _candidates():
    env = _os.environ.get("ROOFLINE_LIBRARY")
    if env:
        yield env
        return
    # The build tree, when this is the package of a source checkout (python/roofline beside c-api/).
    checkout = _Path(__file__).resolve().parent.parent.parent
    if (checkout / "c-api" / "include" / "roofline.h").is_file():
        yield str(checkout / "build" / "c-api" / "libroofline.so")
    yield "libroofline.so.0"
    found = _ctypes_util.find_library("roofline")
    if found:
        yield found


def _load():
    errors = []
    for path in _candidates():
        if _os.sep in path and not _os.path.exists(path):
            errors.append(f"{path}: no such file")
            continue
        try:
            return _ctypes.CDLL(path)
        except OSError as e:
            errors.append(f"{path}: {e}")
    raise ImportError("roofline: cannot load libroofline (set ROOFLINE_LIBRARY to its path):\n  "
                      + "\n  ".join(errors))


_lib = _load()

NUMBER, TEXT, ARRAY, REST, TABLE = 0, 1, 2, 3, 4


class _ArgInfo(_ctypes.Structure):
    _fields_ = [("name", _ctypes.c_char_p), ("unit", _ctypes.c_char_p), ("type", _ctypes.c_int),
                ("optional", _ctypes.c_int), ("default_number", _ctypes.c_double),
                ("default_text", _ctypes.c_char_p), ("description_en", _ctypes.c_char_p),
                ("description_zh", _ctypes.c_char_p), ("default_label", _ctypes.c_char_p)]


class _FormulaInfo(_ctypes.Structure):
    _fields_ = [("name", _ctypes.c_char_p), ("c_name", _ctypes.c_char_p), ("group", _ctypes.c_char_p),
                ("result_type", _ctypes.c_int), ("result_unit", _ctypes.c_char_p),
                ("description_en", _ctypes.c_char_p), ("description_zh", _ctypes.c_char_p),
                ("arg_count", _ctypes.c_size_t), ("args", _ctypes.POINTER(_ctypes.POINTER(_ArgInfo))),
                ("example", _ctypes.c_char_p)]


class _Value(_ctypes.Structure):
    _fields_ = [("number", _ctypes.c_double), ("text", _ctypes.c_char_p)]


_lib.roofline_version.restype = _ctypes.c_char_p
_lib.roofline_status_string.restype = _ctypes.c_char_p
_lib.roofline_status_string.argtypes = [_ctypes.c_int]
_lib.roofline_errmsg.restype = _ctypes.c_char_p
_lib.roofline_errarg.restype = _ctypes.c_char_p
_lib.roofline_formula_count.restype = _ctypes.c_size_t
_lib.roofline_formula_at.restype = _ctypes.POINTER(_FormulaInfo)
_lib.roofline_formula_at.argtypes = [_ctypes.c_size_t]
_lib.roofline_call.argtypes = [_ctypes.c_char_p, _ctypes.POINTER(_Value), _ctypes.c_size_t,
                               _ctypes.POINTER(_ctypes.c_void_p)]
# A library older than roofline_call_many() still works: sweeps then call it once per element.
_CALL_MANY = getattr(_lib, "roofline_call_many", None)
if _CALL_MANY is not None:
    _CALL_MANY.argtypes = [_ctypes.c_char_p, _ctypes.POINTER(_ctypes.POINTER(_Value)),
                           _ctypes.POINTER(_ctypes.c_size_t), _ctypes.c_size_t, _ctypes.c_size_t,
                           _ctypes.POINTER(_ctypes.c_double), _ctypes.POINTER(_ctypes.c_int),
                           _ctypes.POINTER(_ctypes.c_size_t)]
_lib.roofline_array_rows.argtypes = [_ctypes.c_void_p]
_lib.roofline_array_rows.restype = _ctypes.c_size_t
_lib.roofline_array_cols.argtypes = [_ctypes.c_void_p]
_lib.roofline_array_cols.restype = _ctypes.c_size_t
_lib.roofline_array_is_text.argtypes = [_ctypes.c_void_p, _ctypes.c_size_t, _ctypes.c_size_t]
_lib.roofline_array_number.argtypes = [_ctypes.c_void_p, _ctypes.c_size_t, _ctypes.c_size_t]
_lib.roofline_array_number.restype = _ctypes.c_double
_lib.roofline_array_text.argtypes = [_ctypes.c_void_p, _ctypes.c_size_t, _ctypes.c_size_t]
_lib.roofline_array_text.restype = _ctypes.c_char_p
_lib.roofline_array_free.argtypes = [_ctypes.c_void_p]
_lib.roofline_model_import_hf_config.argtypes = [_ctypes.c_char_p, _ctypes.c_char_p]
if hasattr(_lib, "roofline_model_import_hf_checkpoint"):  # since 0.5
    _lib.roofline_model_import_hf_checkpoint.argtypes = [_ctypes.c_char_p, _ctypes.c_char_p, _ctypes.c_char_p]
_lib.roofline_catalog_add_json.argtypes = [_ctypes.c_char_p, _ctypes.POINTER(_ctypes.c_size_t)]
_LOAD_USER_FOLDER = getattr(_lib, "roofline_catalog_load_user_folder", None)  # since 0.5
if _LOAD_USER_FOLDER is not None:
    _LOAD_USER_FOLDER.argtypes = [_ctypes.c_char_p, _ctypes.POINTER(_ctypes.c_size_t)]
_lib.roofline_errdetail.restype = _ctypes.c_char_p


def library_version():
    """The version of the loaded libroofline, "MAJOR.MINOR.PATCH"."""
    return _lib.roofline_version().decode()


# ---- Errors ---------------------------------------------------------------------------------------

class RooflineError(Exception):
    """A formula gave no result. ``status`` is the C status name (e.g. "ROOFLINE_ERROR_ARGUMENT"),
    ``code`` its number, ``argument`` the argument at fault ("" when none is); the message is the
    library's. ``index`` is None, except in a sweep: the index of the first element that failed, in the
    result's shape (an int for one dimension, a tuple for more), also said at the end of the message."""

    def __init__(self, code, message, argument, index=None):
        super().__init__(message)
        self.code = code
        self.status = _lib.roofline_status_string(code).decode()
        self.argument = argument
        self.index = index


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
        elif isinstance(a, bool) or not isinstance(a, _numbers.Real):  # (numpy's scalars are Real)
            raise ArgumentError(1, f"{name}: argument {i + 1} must be a number or a text (got {a!r})", "")
        else:
            values[i].number = float(a)
    out = _ctypes.c_void_p()
    code = _lib.roofline_call(name.encode(), values, len(args), _ctypes.byref(out))
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


def _table_text(name, arg, value):
    """A table argument (TABLE: ``calibrate``'s measurements) as the one text the C ABI takes: rows joined by line
    breaks, cells by tabs. ``value`` is a list of rows (each a list or tuple of numbers, texts and None for an empty
    cell; a row may be one value), a 2-D numpy array or pandas DataFrame (its rows, under its column names where they
    are texts: ``calibrate`` reads its columns by those names, in any order), or already such a text."""
    if isinstance(value, str):
        return value
    if value is None:
        _fail(1, f"{name}: argument '{arg}': must be a table: a list of rows, or their text (got None)", arg)
    if hasattr(value, "itertuples"):  # a pandas DataFrame: its rows, without the index, under its column names
        names = [str(c) for c in value.columns] if all(isinstance(c, str) for c in value.columns) else None
        value = ([names] if names else []) + [tuple(r) for r in value.itertuples(index=False)]
    elif _is_numpy_like(value):
        value = value.tolist()
    if _is_scalar(value) or not isinstance(value, (list, tuple, range)):
        value = [[value]]
    rows = []
    for r, row in enumerate(value, 1):
        cells = []
        for c, x in enumerate(row if isinstance(row, (list, tuple)) else [row], 1):
            if x is None:
                cells.append("")
            elif isinstance(x, str):
                if any(ch in x for ch in "\t\r\n"):
                    _fail(1, f"{name}: argument '{arg}': row {r}, cell {c}: a text with a tab or a line break", arg)
                cells.append(x)
            elif isinstance(x, _numbers.Real) and not isinstance(x, bool):
                cells.append(repr(float(x)))
            else:
                _fail(1, f"{name}: argument '{arg}': row {r}, cell {c}: must be a number, a text or None (got {x!r})",
                      arg)
        rows.append("\t".join(cells))
    return "\n".join(rows)


def _tables_as_text(name, specs, values):
    """The values with each table argument's written as its text; a REST argument's (``why``'s) as the formula
    named before it takes them."""
    out = []
    for i, v in enumerate(values):
        if i < len(specs) and specs[i][1] == REST:
            target = values[i - 1] if i > 0 and isinstance(values[i - 1], str) else None
            spec = _SPECS.get(target.upper()) if target else None
            return out + (_tables_as_text(target.upper(), spec[1], values[i:]) if spec else list(values[i:]))
        out.append(_table_text(name, specs[i][0], v) if i < len(specs) and specs[i][1] == TABLE else v)
    return out


# ---- Sweeps: sequences and numpy arrays for arguments ------------------------------------------------

def _is_scalar(v):
    return isinstance(v, (str, bytes, _numbers.Number)) or v is None


def _is_numpy_like(v):
    """A numpy array, or anything numpy turns into one (``__array__``: a pandas Series, ...)."""
    return not _is_scalar(v) and hasattr(v, "__array__")


def _is_array(v):
    return isinstance(v, (list, tuple, range)) or _is_numpy_like(v)


def _fail(code, message, argument, index=None):
    raise _ERRORS.get(code, RooflineError)(code, message, argument, index)


def _list_shape(v, where, name):
    """The shape of nested sequences, numpy's way: a sequence is an axis, anything else an element."""
    if not isinstance(v, (list, tuple, range)):
        return ()
    shapes = {_list_shape(x, where, name) for x in v}
    if len(shapes) > 1:
        _fail(1, f"{where}: argument '{name}': nested sequences of different lengths (ragged); a sweep needs "
                 "the shape of an array", name)
    return (len(v),) + (shapes.pop() if shapes else ())


def _flatten(v):
    if isinstance(v, (list, tuple, range)):
        for x in v:
            yield from _flatten(x)
    else:
        yield v


def _size(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _broadcast(where, names, shapes):
    """The shape of the result, as numpy broadcasts: axes aligned from the right, each of one length or 1."""
    out = ()
    for name, shape in zip(names, shapes):
        a, b = (1,) * (len(shape) - len(out)) + out, (1,) * (len(out) - len(shape)) + shape
        if any(x != y and 1 not in (x, y) for x, y in zip(a, b)):
            _fail(1, f"{where}: argument '{name}': shape {shape} does not broadcast with {out}, the shape of the "
                     "arguments before it", name)
        out = tuple(max(x, y) if 0 not in (x, y) else 0 for x, y in zip(a, b))
    return out


def _index(i, shape):
    """The flat index i of an array of that shape as numpy gives it: an int for one axis, else a tuple."""
    if len(shape) <= 1:
        return i
    index = []
    for d in reversed(shape):
        i, r = divmod(i, d)
        index.append(r)
    return tuple(reversed(index))


def _expand(flat, shape, to):
    """The elements of a broadcast to `to` of an array of `shape` (elements `flat`), in row-major order."""
    shape = (1,) * (len(to) - len(shape)) + shape
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step if d != 1 else 0)
        step *= d
    strides.reverse()
    return [flat[sum(i * s for i, s in zip(index, strides))] for index in _itertools.product(*map(range, to))]


def _nest(flat, shape):
    """Nested lists of that shape from row-major elements."""
    if len(shape) <= 1:
        return list(flat)
    step = _size(shape[1:])
    return [_nest(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


_NUMPY_VALUE = None


def _numpy_value(np):
    """roofline_value as a numpy structured type: a column of numbers without a Python loop."""
    global _NUMPY_VALUE
    if _NUMPY_VALUE is None:
        _NUMPY_VALUE = np.dtype({"names": ["number", "text"], "formats": [np.float64, np.uintp],
                                 "offsets": [_Value.number.offset, _Value.text.offset],
                                 "itemsize": _ctypes.sizeof(_Value)})
    return _NUMPY_VALUE


def _sweep(name, result_type, specs, values):
    """A formula over arrays of arguments: one call of roofline_call_many() for every element."""
    names = [n for n, _ in specs] + [f"argument {i + 1}" for i in range(len(specs), len(values))]
    kinds = [k for _, k in specs] + [NUMBER] * (len(values) - len(specs))
    if result_type != NUMBER:
        first = next(n for n, v in zip(names, values) if _is_array(v))
        _fail(1, f"{name}: argument '{first}': a sequence, but {name} returns "
                 f"{'a text' if result_type == TEXT else 'an array'}: only formulas of a number take sequences", first)
    np = None
    if any(_is_numpy_like(v) for v in values):
        import numpy as np  # only when an argument is a numpy array: the package works without numpy
    shapes, elements = [], []
    for arg, v in zip(names, values):
        if _is_scalar(v):
            shapes.append(())
            elements.append([v])
        elif np is not None:
            try:
                a = np.asarray(v)
            except ValueError as e:  # ragged
                _fail(1, f"{name}: argument '{arg}': {e}", arg)
            shapes.append(a.shape)
            elements.append(a)
        else:
            shapes.append(_list_shape(v, name, arg))
            elements.append(list(_flatten(v)))
    shape = _broadcast(name, names, shapes)
    n = _size(shape)
    columns, lengths = [], []
    for arg, kind, s, e in zip(names, kinds, shapes, elements):
        one = _size(s) == 1
        if np is not None and not isinstance(e, list):
            e = e.reshape(-1)[:1] if one else np.broadcast_to(e, shape).reshape(-1)
            if kind == NUMBER and e.dtype.kind in "iuf":
                column = np.zeros(len(e), dtype=_numpy_value(np))  # texts NULL: numbers
                column["number"] = e
                columns.append(column)
                lengths.append(len(e))
                continue
            e = e.tolist()
        elif not one and s != shape:
            e = _expand(e, s, shape)
        elif one:
            e = e[:1]
        column = (_Value * len(e))()
        for i, x in enumerate(e):
            if kind == TEXT and isinstance(x, str):
                column[i].text = x.encode()
            elif kind != TEXT and isinstance(x, _numbers.Real) and not isinstance(x, bool):
                column[i].number = float(x)
            else:
                at = _index(0 if one else i, shape)
                _fail(1, f"{name}: argument '{arg}': must be {'a text' if kind == TEXT else 'a number'} "
                         f"(got {x!r}) (at index {at})", arg, at)
        columns.append(column)
        lengths.append(len(e))
    results = np.empty(n) if np is not None else (_ctypes.c_double * n)()
    if _CALL_MANY is None:  # an older library: one call per element
        for i in range(n):
            try:
                results[i] = _call(name, [_element(c, 0 if len(c) == 1 else i) for c in columns])
            except RooflineError as e:
                at = _index(i, shape)
                _fail(e.code, f"{e} (at index {at})", e.argument, at)
    else:
        pointer = _ctypes.POINTER(_Value)
        column_pointers = (pointer * max(1, len(columns)))(
            *[c.ctypes.data_as(pointer) if np is not None and not isinstance(c, _ctypes.Array) else c for c in columns])
        failed = _ctypes.c_size_t(n)
        code = _CALL_MANY(name.encode(), column_pointers, (_ctypes.c_size_t * max(1, len(lengths)))(*lengths),
                          len(columns), n, results.ctypes.data_as(_ctypes.POINTER(_ctypes.c_double))
                          if np is not None else results, None, _ctypes.byref(failed))
        if code != 0:
            message, argument = _lib.roofline_errmsg().decode(), _lib.roofline_errarg().decode()
            if failed.value < n:  # an element failed: which one
                at = _index(failed.value, shape)
                _fail(code, f"{message} (at index {at})", argument, at)
            _fail(code, message, argument)
    if np is not None:
        return results.reshape(shape)
    return _nest(list(results), shape)


def _element(column, i):
    """Element i of a column (a roofline_value array, ctypes or numpy) as a Python number or text."""
    v = column[i]
    if isinstance(v, _Value):
        return v.text.decode() if v.text is not None else v.number
    return float(v["number"])


def _make(info):
    name = info.name.decode()
    args = [info.args[i].contents for i in range(info.arg_count)]
    params, lines = [], []
    for a in args:
        default = _inspect.Parameter.empty
        if a.type == REST:  # any number of further arguments: *arguments
            params.append(_inspect.Parameter(a.name.decode(), _inspect.Parameter.VAR_POSITIONAL))
            lines.append(f"    *{a.name.decode()} ({a.unit.decode()}): {a.description_en.decode()}")
            continue
        if a.optional:
            default = a.default_text.decode() if a.type == TEXT else a.default_number
        params.append(_inspect.Parameter(a.name.decode(), _inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default))
        unit = a.unit.decode()
        shown = _text(a.default_label) if a.default_label else repr(default)
        lines.append(f"    {a.name.decode()} ({unit}{', default ' + shown if a.optional else ''}): "
                     f"{a.description_en.decode()}")
    signature = _inspect.Signature(params)
    result = {NUMBER: "float", TEXT: "str", ARRAY: "list of row tuples"}[info.result_type]

    specs = [(a.name.decode(), a.type) for a in args]
    _SPECS[name] = (info.result_type, specs)

    def formula(*a, **kw):
        bound = signature.bind(*a, **kw)
        bound.apply_defaults()
        values = _tables_as_text(name, specs, list(bound.args))
        if any(_is_array(v) for v in values):
            return _sweep(name, info.result_type, specs, values)
        return _call(name, values)

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
    if isinstance(source, _os.PathLike) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        return _Path(source).read_text(encoding="utf-8")
    return source


def _check(code):
    if code != 0:
        raise _ERRORS.get(code, RooflineError)(code, _lib.roofline_errmsg().decode(), _lib.roofline_errarg().decode())


def import_hf_config(model_id, config, quant_config=None):
    """Adds the model ``model_id`` from a Hugging Face config.json (a dict, its JSON text, or its path):
    usable wherever a catalog id is, e.g. ``step_ms(model_id, "h100-sxm", 64, 4096)``. ``quant_config``:
    the checkpoint's hf_quant_config.json, likewise (ModelOpt NVFP4/FP8 checkpoints; libroofline 0.5)."""
    if quant_config is None:
        _check(_lib.roofline_model_import_hf_config(model_id.encode(), _json_text(config).encode()))
        return
    if not hasattr(_lib, "roofline_model_import_hf_checkpoint"):
        raise RooflineError(8, f"libroofline {library_version()} has no roofline_model_import_hf_checkpoint() "
                               "(since 0.5)", "")
    _check(_lib.roofline_model_import_hf_checkpoint(model_id.encode(), _json_text(config).encode(),
                                                    _json_text(quant_config).encode()))


def add_catalog(catalog):
    """Adds the GPUs and models of a catalog of your own (a dict, its JSON text, or its path) in the
    format of libroofline/catalog/*.json; returns how many entries were added."""
    added = _ctypes.c_size_t(0)
    _check(_lib.roofline_catalog_add_json(_json_text(catalog).encode(), _ctypes.byref(added)))
    return added.value


def load_user_catalog(folder=None):
    """Loads the user's own catalog folder (``roofline_catalog_load_user_folder()``): ``folder``'s
    ``catalog/*.json`` and ``models/<id>.json`` (Hugging Face config.json files); ``None``, the default
    folder, ``$XDG_CONFIG_HOME/libroofline``, else ``~/.config/libroofline``, which the package loads on
    import unless ``ROOFLINE_NO_USER_CATALOG=1``. A folder that does not exist adds nothing. Returns how
    many entries were added. Raises :class:`ArgumentError` naming each file that did not load, one per
    line, after loading the others."""
    if _LOAD_USER_FOLDER is None:
        raise RooflineError(8, f"libroofline {library_version()} has no roofline_catalog_load_user_folder() (since 0.5)", "")
    added = _ctypes.c_size_t(0)
    path = None if folder is None else _os.fsencode(folder)
    _check(_LOAD_USER_FOLDER(path, _ctypes.byref(added)))
    return added.value


def _load_user_catalog_on_import():
    if _os.environ.get("ROOFLINE_NO_USER_CATALOG", "") not in ("", "0") or _LOAD_USER_FOLDER is None:
        return
    if _LOAD_USER_FOLDER(None, None) != 0:
        import warnings
        for line in _lib.roofline_errdetail().decode(errors="replace").splitlines():
            warnings.warn(f"roofline: {line} (skipped)", RuntimeWarning, stacklevel=3)


_load_user_catalog_on_import()


def formulas():
    """The names of the Python functions, one per formula, in the library's order."""
    return list(_FUNCTIONS)


def call(formula, *args):
    """Calls a formula by its spreadsheet name (case-insensitive), e.g. ``call("ROOFLINE_BALANCE", 989, 3.35)``;
    trailing optional arguments may be left out. Sequences and numpy arrays sweep, as in the functions."""
    spec = _SPECS.get(formula.upper()) if isinstance(formula, str) else None
    if spec is not None:
        args = _tables_as_text(formula.upper(), spec[1], list(args))
    if spec is not None and any(_is_array(v) for v in args):
        return _sweep(formula.upper(), spec[0], spec[1], list(args))
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
_SPECS = {}  # formula name: (result type, [(argument, type), ...])
for _i in range(_lib.roofline_formula_count()):
    _f = _make(_lib.roofline_formula_at(_i).contents)
    _FUNCTIONS[_f.__name__] = _f
    globals()[_f.__name__] = _f
    __all__.append(_f.__name__)
del _i, _f
