"""A stand-in for pyarrow, for tools/kernels/side-by-side.py only (not pyarrow; not in CI).

aiconfigurator's estimator reads its parquet tables with ``pyarrow.parquet.read_table(path).to_pylist()`` and
nothing else of pyarrow. Debian 12 has no pyarrow, so this package answers that one call by decoding the file
with the npm package hyparquet (tools/kernels/decode-parquet.mjs; `npm install` in tools/kernels first).
"""

# pandas probes pyarrow on import and uses it only from version 7 on: a version of 0 keeps pandas off it.
__version__ = "0.0.0"
