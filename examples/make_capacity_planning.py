"""Builds examples/capacity-planning.fods: a capacity-planning workbook made only of ROOFLINE_* formulas.

Eight sheets:
  Article   the article's two batching tables (8B BF16 model on an H100 SXM), critical batches, prefill;
  Plan      a deployment planner (inputs -> memory, max batch, step time, tokens/s) and what-if grids;
  Roofline  ROOFLINE_ROOF as an array formula, the article's workloads as points, a log-log chart;
  Planner   the capacity planner: a load and latency targets -> the ROOFLINE_PLAN array (which GPUs, what
            tensor parallelism and weight format, how many GPUs, what cost), its answer in one line and a
            chart of cost per million output tokens against time per output token;
  Models    every catalog model (ROOFLINE_MODELS()) on one GPU: what fits, on how many GPUs in tensor
            parallel, its decode step and its time to first token; and the catalog's GPUs.
  Calibrate a profile fitted on measured rows (ROOFLINE_CALIBRATE; here 18 steps measured on one H200,
            tests/data/calibration/h200-graph.csv), each row's prediction and error (ROOFLINE_CALIBRATE_ROWS)
            beside typical's, and the median errors of both.
  Tails     percentiles of TTFT and TPOT against the load (ROOFLINE_SIMULATE at shares of a replica's capacity),
            goodput and the mean batch, and a chart of p50 and p99 TTFT against requests/s.
  Fleet     several models at once (ROOFLINE_FLEET over the yellow workloads of examples/fleet.csv): each one's
            cheapest configuration and the fleet's GPUs, servers, cost per hour and month and power.

The workbook is built through Python-UNO in a private headless Calc with the add-in installed (so the
formulas are the add-in's, and Calc computed every cached value), then stored as flat ODF.

usage: /usr/bin/python3 examples/make_capacity_planning.py WORKDIR OXT OUTPUT.fods
e.g.   /usr/bin/python3 examples/make_capacity_planning.py /tmp/cp build/calc-addin/roofline.oxt \\
           examples/capacity-planning.fods
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "calc-addin" / "tests"))
from calc import Calc  # noqa: E402

FLAT_ODS = "OpenDocument Spreadsheet Flat XML"

# Colours (RGB as integers).
INPUT_BG = 0xFFF2CC     # yellow: change me
HEADER_BG = 0xDDEBF7    # light blue: table headers
TITLE_COLOR = 0x1F4E79
NOTE_COLOR = 0x595959
ROOF_COLOR = 0x1F77B4
POINT_COLOR = 0xD62728

# Named ranges: the key tables, which show_capacity_planning.py prints and checks.
KEY_TABLES = {}


class Book:
    """Small helpers over a Calc document reached through Python-UNO."""

    def __init__(self, ctx, doc):
        import uno  # noqa: PLC0415
        self.uno = uno
        self.ctx = ctx
        self.doc = doc
        self.locale = uno.createUnoStruct("com.sun.star.lang.Locale")
        self.locale.Language, self.locale.Country = "en", "US"
        self._formats = {}
        self.headers = []
        self.fit_rows = []

    def fmt(self, code):
        if code not in self._formats:
            formats = self.doc.NumberFormats
            key = formats.queryKey(code, self.locale, False)
            if key == -1:
                key = formats.addNew(code, self.locale)
            self._formats[code] = key
        return self._formats[code]

    def put(self, sheet, ref, value, fmt=None, bold=False, bg=None, italic=False, color=None, size=None,
            align=None):
        cell = sheet.getCellRangeByName(ref)
        if isinstance(value, str) and value.startswith("="):
            cell.setFormula(value)
        elif isinstance(value, str):
            cell.setString(value)
        elif value is not None:
            cell.setValue(value)
        self.style(cell, fmt=fmt, bold=bold, bg=bg, italic=italic, color=color, size=size, align=align)
        return cell

    def style(self, cells, fmt=None, bold=False, bg=None, italic=False, color=None, size=None, align=None,
              wrap=False):
        from com.sun.star.awt.FontWeight import BOLD  # noqa: PLC0415
        from com.sun.star.awt.FontSlant import ITALIC  # noqa: PLC0415
        if fmt:
            cells.NumberFormat = self.fmt(fmt)
        if bold:
            cells.CharWeight = BOLD
        if italic:
            cells.CharPosture = ITALIC
        if bg is not None:
            cells.CellBackColor = bg
        if color is not None:
            cells.CharColor = color
        if size:
            cells.CharHeight = size
        if align:
            cells.HoriJustify = self.uno.Enum("com.sun.star.table.CellHoriJustify", align)
        if wrap:
            cells.IsTextWrapped = True

    def row(self, sheet, first, values, **kw):
        """Writes values to the row starting at `first` (e.g. "A5")."""
        col, row = _split(first)
        for i, v in enumerate(values):
            if v is not None:
                self.put(sheet, f"{_col(col + i)}{row}", v, **kw)

    def header(self, sheet, ref_range, labels):
        first = ref_range.split(":")[0]
        self.row(sheet, first, labels)
        cells = sheet.getCellRangeByName(ref_range)
        self.style(cells, bold=True, bg=HEADER_BG, wrap=True, align="CENTER")
        cells.VertJustify = self.uno.Enum("com.sun.star.table.CellVertJustify", "CENTER")
        self.headers.append(cells)  # their heights fit the text once the columns have their widths

    def title(self, sheet, ref, text, size=14):
        self.put(sheet, ref, text, bold=True, color=TITLE_COLOR, size=size)

    def note(self, sheet, ref, text):
        self.put(sheet, ref, text, italic=True, color=NOTE_COLOR)

    def inputs(self, sheet, first_row, rows, unit_col="C"):
        """rows: (label, value, unit, number format) -> label in A, yellow input in B, unit in C."""
        for i, (label, value, unit, fmt) in enumerate(rows):
            r = first_row + i
            self.put(sheet, f"A{r}", label)
            self.put(sheet, f"B{r}", value, fmt=fmt, bg=INPUT_BG)
            if unit:
                self.put(sheet, f"{unit_col}{r}", unit, color=NOTE_COLOR)

    def widths(self, sheet, cm):
        cols = sheet.Columns
        for i, w in enumerate(cm):
            if w:
                cols.getByIndex(i).Width = int(w * 1000)

    def name(self, key, sheet_name, ref, key_table=True):
        """A named range over a key table, e.g. Article_Table1 -> $Article.$A$16:$L$18 (key_table=False:
        a range that is no key table, e.g. a drop-down list's source)."""
        a, b = ref.split(":")
        absolute = f"${sheet_name}.{_abs(a)}:{_abs(b)}"
        pos = self.uno.createUnoStruct("com.sun.star.table.CellAddress")
        self.doc.NamedRanges.addNewByName(key, absolute, pos, 0)
        if key_table:
            KEY_TABLES[key] = absolute

    def expression(self, key, formula):
        """A named expression, e.g. a drop-down list's source that follows ROOFLINE_MODELS()'s length."""
        pos = self.uno.createUnoStruct("com.sun.star.table.CellAddress")
        self.doc.NamedRanges.addNewByName(key, formula, pos, 0)


def chart_data(smgr, ctx, provider):
    """The two makers of a chart's data: a sequence over a cell range in a role ("values-x", "label"),
    and a labelled sequence of values."""
    def sequence(rng, role):
        seq = provider.createDataSequenceByRangeRepresentation(rng)
        seq.Role = role
        return seq

    def labeled(values, label=None):
        lds = smgr.createInstanceWithContext("com.sun.star.chart2.data.LabeledDataSequence", ctx)
        lds.setValues(values)
        if label is not None:
            lds.setLabel(label)
        return lds

    return sequence, labeled


def _split(ref):
    letters = "".join(ch for ch in ref if ch.isalpha())
    number = int("".join(ch for ch in ref if ch.isdigit()))
    col = 0
    for ch in letters.upper():
        col = col * 26 + (ord(ch) - 64)
    return col - 1, number


def _col(index):
    s = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        s = chr(65 + rem) + s
    return s


def _abs(ref):
    col, row = _split(ref)
    return f"${_col(col)}${row}"


# ---------------------------------------------------------------------------------------------------
# Sheet "Article"

def article(book, sheet):
    P, BPP, TF, BW, KV, MEM, CTX2, PRE = "$B$5", "$B$6", "$B$7", "$B$8", "$B$9", "$B$10", "$B$11", "$B$12"
    book.title(sheet, "A1", "Reproducing the article: an 8B BF16 model decoding on one H100 SXM")
    book.note(sheet, "A2", "Every number is computed by the libroofline add-in (ROOFLINE_* formulas) from the "
                           "yellow inputs; the article's own figures are quoted under each table.")
    book.put(sheet, "A4", "Inputs", bold=True, size=12)
    book.inputs(sheet, 5, [
        ("Model parameters", 8, "billions", "0.##"),
        ("Bytes per parameter", 2, "bytes (BF16)", "0.##"),
        ("Peak compute, dense BF16", 989, "TFLOP/s", "0"),
        ("Memory bandwidth", 3.35, "TB/s", "0.00"),
        ("KV cache per token", 128, "KiB/token (all layers, K+V)", "0"),
        ("GPU memory", 80, "GB", "0"),
        ("Context per user in table 2", 4096, "tokens", "#,##0"),
        ("Prompt tokens of the prefill", 2000, "tokens", "#,##0"),
    ])
    book.put(sheet, "A13", "Balance point of the GPU")
    book.put(sheet, "B13", f"=ROOFLINE_BALANCE({TF};{BW})", fmt="0.0")
    book.put(sheet, "C13", "FLOP/byte (peak compute / bandwidth)", color=NOTE_COLOR)

    headers = ["Batch (users)", "Weight read (ms)", "KV read (ms)", "Compute (ms)", "Step bound (ms)",
               "Bound by", "Throughput (tok/s)", "Per user (tok/s)", "Weights (GB)", "KV cache (GB)",
               "Memory used (GB)", "Arithmetic intensity (FLOP/byte)"]

    def batching_table(top, title, ctx_value, notes, key):
        # top: title row; top+1: context; top+2: header; top+3, top+4: batch 1 and 64; then critical batch.
        book.title(sheet, f"A{top}", title, size=12)
        book.put(sheet, f"A{top + 1}", "Context per user (tokens)")
        ctx_cell = f"$B${top + 1}"
        book.put(sheet, f"B{top + 1}", ctx_value, fmt="#,##0",
                 bg=INPUT_BG if not str(ctx_value).startswith("=") else None)
        book.header(sheet, f"A{top + 2}:L{top + 2}", headers)
        for r, batch in ((top + 3, 1), (top + 4, 64)):
            b = f"$A{r}"
            flops = f"2*{P}*1E9*{b}"
            read = f"(ROOFLINE_WEIGHTS_GB({P};{BPP})+ROOFLINE_KV_GB({b};{ctx_cell};{KV}))*1E9"
            book.put(sheet, f"A{r}", batch, fmt="0", bg=INPUT_BG, align="CENTER")
            book.put(sheet, f"B{r}", f"=ROOFLINE_MEMORY_MS(ROOFLINE_WEIGHTS_GB({P};{BPP})*1E9;{BW})", fmt="0.000")
            book.put(sheet, f"C{r}", f"=ROOFLINE_MEMORY_MS(ROOFLINE_KV_GB({b};{ctx_cell};{KV})*1E9;{BW})",
                     fmt="0.000")
            book.put(sheet, f"D{r}", f"=ROOFLINE_COMPUTE_MS({flops};{TF})", fmt="0.000")
            book.put(sheet, f"E{r}", f"=ROOFLINE_DECODE_MS({P};{b};{ctx_cell};{BW};{TF};{KV};{BPP})",
                     fmt="0.000", bold=True)
            book.put(sheet, f"F{r}", f"=ROOFLINE_BOUND({flops};{read};{TF};{BW})", align="CENTER")
            book.put(sheet, f"G{r}", f"=ROOFLINE_DECODE_TOKS({P};{b};{ctx_cell};{BW};{TF};{KV};{BPP})",
                     fmt="#,##0", bold=True)
            book.put(sheet, f"H{r}", f"=G{r}/{b}", fmt="#,##0")
            book.put(sheet, f"I{r}", f"=ROOFLINE_WEIGHTS_GB({P};{BPP})", fmt="0.0")
            book.put(sheet, f"J{r}", f"=ROOFLINE_KV_GB({b};{ctx_cell};{KV})", fmt="0.0")
            book.put(sheet, f"K{r}", f"=I{r}+J{r}", fmt="0.0")
            book.put(sheet, f"L{r}", f"=ROOFLINE_DECODE_AI({P};{b};{ctx_cell};{KV};{BPP})", fmt="0.0")
        crit = top + 5
        book.put(sheet, f"A{crit}", "Critical batch (first compute-bound batch)", bold=True)
        book.put(sheet, f"B{crit}",
                 f'=IFERROR(ROOFLINE_CRITICAL_BATCH({P};{ctx_cell};{TF};{BW};{KV};{BPP});"never (KV bound)")',
                 fmt="#,##0", bold=True, align="LEFT")
        sheet.getCellRangeByName(f"B{crit}").ParaIndent = 200
        book.note(sheet, f"A{crit + 1}", notes)
        book.name(key, "Article", f"A{top + 2}:L{top + 4}")
        book.name(key + "_Critical", "Article", f"A{crit}:B{crit}")
        return crit + 1

    batching_table(15, "Table 1: decode without KV cache", 0,
                   "Article: weight read 4.8 ms; compute 0.016 ms (batch 1) and 1.0 ms (batch 64); step bound "
                   "4.8 ms; ~209 and ~13,400 tok/s; critical batch ~296.", "Article_Table1")
    batching_table(23, f'="Table 2: decode with "&TEXT({CTX2};"#,##0")&" tokens of KV cache per user ("&{KV}&'
                       f'" KiB/token)"', f"={CTX2}",
                   "Article: batch 64 needs weights 16 GB + KV 34 GB = 50 GB; step 15 ms; ~4,257 tok/s; "
                   "no critical batch: the KV reads grow with the batch, decode stays memory bound.",
                   "Article_Table2")

    top = 31
    book.title(sheet, f"A{top}", "Prefill: the prompt in one step", size=12)
    book.header(sheet, f"A{top + 1}:G{top + 1}",
                ["Prompt tokens", "Weight read (ms)", "Compute (ms)", "Prefill bound (ms)", "Bound by",
                 "Throughput (tok/s)", "Arithmetic intensity (FLOP/byte)"])
    r = top + 2
    flops, read = f"2*{P}*1E9*$A{r}", f"ROOFLINE_WEIGHTS_GB({P};{BPP})*1E9"
    book.put(sheet, f"A{r}", f"={PRE}", fmt="#,##0", align="CENTER")
    book.put(sheet, f"B{r}", f"=ROOFLINE_MEMORY_MS({read};{BW})", fmt="0.000")
    book.put(sheet, f"C{r}", f"=ROOFLINE_COMPUTE_MS({flops};{TF})", fmt="0.000")
    book.put(sheet, f"D{r}", f"=ROOFLINE_PREFILL_MS({P};$A{r};{TF};{BW};{BPP})", fmt="0.000", bold=True)
    book.put(sheet, f"E{r}", f"=ROOFLINE_BOUND({flops};{read};{TF};{BW})", align="CENTER")
    book.put(sheet, f"F{r}", f"=$A{r}/D{r}*1000", fmt="#,##0")
    book.put(sheet, f"G{r}", f"=ROOFLINE_AI({flops};{read})", fmt="#,##0")
    book.note(sheet, f"A{r + 1}", "Article: a 2000-token prefill takes ~32 ms and is compute bound.")
    book.name("Article_Prefill", "Article", f"A{top + 1}:G{r}")
    book.name("Article_Inputs", "Article", "A5:B13")

    book.widths(sheet, [8.4, 2.6, 2.4, 2.4, 2.4, 2.6, 2.6, 2.4, 2.2, 2.2, 2.4, 3.0])


# ---------------------------------------------------------------------------------------------------
# Sheet "Plan"

BATCHES = [1, 8, 16, 32, 64, 128, 256]
CONTEXTS = [0, 1024, 4096, 16384, 32768]


def plan(book, sheet):
    P, BPP, KV, MEM, TF, BW, RES, CTX, B = ("$B$5", "$B$6", "$B$7", "$B$8", "$B$9", "$B$10", "$B$11", "$B$12",
                                            "$B$13")
    book.title(sheet, "A1", "Deployment planner: one dense model on one GPU")
    book.note(sheet, "A2", "Change the yellow inputs; every other number follows from ROOFLINE_* formulas "
                           "(decode lower bounds: real systems reach a fraction of them).")
    book.put(sheet, "A4", "Inputs", bold=True, size=12)
    book.inputs(sheet, 5, [
        ("Model parameters", 8, "billions", "0.##"),
        ("Bytes per parameter", 2, "bytes: 2 BF16, 1 FP8/INT8, 0.5 INT4", "0.##"),
        ("KV cache per token", 128, "KiB/token (all layers, K+V)", "0.##"),
        ("GPU memory", 80, "GB", "0.##"),
        ("Peak compute, dense", 989, "TFLOP/s", "0.##"),
        ("Memory bandwidth", 3.35, "TB/s", "0.00"),
        ("Memory reserve (activations, runtime)", 4, "GB", "0.##"),
        ("Context per user", 4096, "tokens", "#,##0"),
        ("Batch (concurrent users)", 64, "sequences", "#,##0"),
    ])

    book.put(sheet, "A15", "Outputs", bold=True, size=12)
    outputs = [
        ("Weights", f"=ROOFLINE_WEIGHTS_GB({P};{BPP})", "GB", "0.0"),
        ("KV cache of the batch", f"=ROOFLINE_KV_GB({B};{CTX};{KV})", "GB", "0.0"),
        ("Memory needed (weights + KV + reserve)", f"=B16+B17+{RES}", "GB", "0.0"),
        ("Fits in GPU memory?", f'=IF(B18<={MEM};"yes";"NO: does not fit")', "", None),
        ("Max batch that fits at this context",
         f'=IF({CTX}=0;IF(B16+{RES}<={MEM};"no KV limit";"weights do not fit");'
         f'IFERROR(ROOFLINE_MAX_BATCH({MEM};{P};{CTX};{KV};{BPP};{RES});"weights do not fit"))',
         "sequences", "#,##0"),
        ("Decode step (lower bound)", f"=ROOFLINE_DECODE_MS({P};{B};{CTX};{BW};{TF};{KV};{BPP})", "ms", "0.00"),
        ("Throughput, system", f"=ROOFLINE_DECODE_TOKS({P};{B};{CTX};{BW};{TF};{KV};{BPP})", "tokens/s",
         "#,##0"),
        ("Throughput, per user", f"=B22/{B}", "tokens/s", "#,##0.0"),
        ("Decode arithmetic intensity", f"=ROOFLINE_DECODE_AI({P};{B};{CTX};{KV};{BPP})", "FLOP/byte", "0.0"),
        ("Balance point of the GPU", f"=ROOFLINE_BALANCE({TF};{BW})", "FLOP/byte", "0.0"),
        ("Bound by", f"=ROOFLINE_BOUND(2*{P}*1E9*{B};({P}*{BPP}+B17)*1E9;{TF};{BW})", "", None),
        ("Critical batch at this context",
         f'=IFERROR(ROOFLINE_CRITICAL_BATCH({P};{CTX};{TF};{BW};{KV};{BPP});"never (KV bound)")',
         "sequences", "#,##0"),
    ]
    for i, (label, formula, unit, fmt) in enumerate(outputs):
        r = 16 + i
        book.put(sheet, f"A{r}", label)
        book.put(sheet, f"B{r}", formula, fmt=fmt, bold=label.startswith(("Throughput, system", "Decode step",
                                                                          "Max batch")), align="RIGHT")
        if unit:
            book.put(sheet, f"C{r}", unit, color=NOTE_COLOR)
    book.name("Plan_Inputs", "Plan", "A5:B13")
    book.name("Plan_Outputs", "Plan", "A16:B27")

    def grid(top, title, cell_formula, fmt, key):
        book.title(sheet, f"A{top}", title, size=12)
        hdr = top + 1
        book.put(sheet, f"A{hdr}", "Batch \u2193  /  context per user (tokens) \u2192", bold=True, bg=HEADER_BG)
        for j, c in enumerate(CONTEXTS):
            book.put(sheet, f"{_col(1 + j)}{hdr}", c, fmt="#,##0", bold=True, bg=INPUT_BG, align="CENTER")
        for i, batch in enumerate(BATCHES):
            r = hdr + 1 + i
            book.put(sheet, f"A{r}", batch, fmt="#,##0", bold=True, bg=INPUT_BG, align="CENTER")
            for j in range(len(CONTEXTS)):
                col = _col(1 + j)
                book.put(sheet, f"{col}{r}", cell_formula(f"$A{r}", f"{col}${hdr}", col, r), fmt=fmt,
                         align="RIGHT")
        last = hdr + len(BATCHES)
        book.name(key, "Plan", f"A{hdr}:{_col(len(CONTEXTS))}{last}")
        return last

    def fits(batch, ctx):
        return f"ROOFLINE_WEIGHTS_GB({P};{BPP})+ROOFLINE_KV_GB({batch};{ctx};{KV})+{RES}<={MEM}"

    last = grid(29, "What-if: system throughput (tokens/s) by batch and context",
                lambda b, c, col, r: f'=IF({fits(b, c)};ROOFLINE_DECODE_TOKS({P};{b};{c};{BW};{TF};{KV};{BPP});'
                                     f'"does not fit")',
                "#,##0", "Plan_Grid_System")
    book.note(sheet, f"A{last + 1}", "\"does not fit\": weights + KV cache + reserve exceed the GPU memory.")
    top2 = last + 3
    shift = top2 - 29  # a cell of the second grid sits `shift` rows below its cell in the first

    def per_user(b, c, col, r):
        system = f"{col}{r - shift}"
        return f"=IF(ISNUMBER({system});{system}/{b};{system})"

    grid(top2, "What-if: tokens/s per user (interactivity) by batch and context", per_user,
         "#,##0.0", "Plan_Grid_User")
    book.widths(sheet, [8.0, 3.4, 2.6, 2.6, 2.6, 2.6, 2.6])


# ---------------------------------------------------------------------------------------------------
# Sheet "Roofline"

ROOF_ROWS = 50


def roofline(book, sheet):
    TF, BW, P, BPP, KV, AIMIN, AIMAX = "$B$4", "$B$5", "$B$6", "$B$7", "$B$8", "$B$10", "$B$11"
    book.title(sheet, "A1", "The roofline of the GPU, with the article's workloads on it")
    book.put(sheet, "A3", "Inputs", bold=True, size=12)
    book.inputs(sheet, 4, [
        ("Peak compute, dense", 989, "TFLOP/s", "0.##"),
        ("Memory bandwidth", 3.35, "TB/s", "0.00"),
        ("Model parameters", 8, "billions", "0.##"),
        ("Bytes per parameter", 2, "bytes", "0.##"),
        ("KV cache per token", 128, "KiB/token", "0.##"),
    ])
    book.put(sheet, "A9", "Balance point (ridge)")
    book.put(sheet, "B9", f"=ROOFLINE_BALANCE({TF};{BW})", fmt="0.0")
    book.put(sheet, "C9", "FLOP/byte", color=NOTE_COLOR)
    book.inputs(sheet, 10, [
        ("Roof from intensity", 0.1, "FLOP/byte", "General"),
        ("Roof to intensity", 10000, "FLOP/byte", "#,##0"),
    ])

    book.title(sheet, "A13", "Workloads", size=12)
    book.header(sheet, "A14:H14", ["Workload", "Batch", "Context (tokens)", "Prompt tokens",
                                   "Arithmetic intensity (FLOP/byte)", "Attainable (TFLOP/s)", "Bound by",
                                   "Step bound (ms)"])
    rows = [("Decode, batch 1, no KV", 1, 0, None), ("Decode, batch 64, 4096 ctx", 64, 4096, None),
            ("Prefill, 2000 tokens", None, None, 2000)]
    for i, (label, batch, ctx, prompt) in enumerate(rows):
        r = 15 + i
        book.put(sheet, f"A{r}", label, bold=True)
        if prompt is None:
            book.put(sheet, f"B{r}", batch, fmt="#,##0", bg=INPUT_BG, align="CENTER")
            book.put(sheet, f"C{r}", ctx, fmt="#,##0", bg=INPUT_BG, align="CENTER")
            book.put(sheet, f"E{r}", f"=ROOFLINE_DECODE_AI({P};B{r};C{r};{KV};{BPP})", fmt="0.0")
            book.put(sheet, f"H{r}", f"=ROOFLINE_DECODE_MS({P};B{r};C{r};{BW};{TF};{KV};{BPP})", fmt="0.00")
        else:
            book.put(sheet, f"D{r}", prompt, fmt="#,##0", bg=INPUT_BG, align="CENTER")
            book.put(sheet, f"E{r}", f"=ROOFLINE_AI(2*{P}*1E9*D{r};ROOFLINE_WEIGHTS_GB({P};{BPP})*1E9)", fmt="#,##0")
            book.put(sheet, f"H{r}", f"=ROOFLINE_PREFILL_MS({P};D{r};{TF};{BW};{BPP})", fmt="0.00")
        book.put(sheet, f"F{r}", f"=ROOFLINE_ATTAINABLE_TFLOPS(E{r};{TF};{BW})", fmt="0.0", bold=True)
        book.put(sheet, f"G{r}", f'=IF(E{r}<=B9;"memory";"compute")', align="CENTER")
    book.name("Roofline_Points", "Roofline", "A14:H17")

    # The roof: a real array formula over J3:K52, under a header row.
    book.header(sheet, "J2:K2", ["Intensity (FLOP/byte)", "Roof (TFLOP/s)"])
    roof = sheet.getCellRangeByName(f"J3:K{2 + ROOF_ROWS}")
    roof.setArrayFormula(f"=ROOFLINE_ROOF({TF};{BW};{AIMIN};{AIMAX};{ROOF_ROWS})")
    book.style(sheet.getCellRangeByName(f"J3:J{2 + ROOF_ROWS}"), fmt="0.###")
    book.style(sheet.getCellRangeByName(f"K3:K{2 + ROOF_ROWS}"), fmt="0.0")
    book.name("Roofline_Roof", "Roofline", f"J2:K{2 + ROOF_ROWS}")
    book.widths(sheet, [5.6, 1.6, 2.2, 2.0, 2.8, 2.4, 2.0, 2.2, 0.6, 2.6, 2.4])

    add_chart(book, sheet)


def add_chart(book, sheet):
    uno = book.uno
    from com.sun.star.awt import Rectangle, Size  # noqa: PLC0415
    ctx = book.ctx
    smgr = ctx.ServiceManager

    top = sheet.getCellRangeByName("A19").Position
    rect = Rectangle(top.X, top.Y, 19500, 11500)
    roof = sheet.getCellRangeByName(f"J2:K{2 + ROOF_ROWS}").RangeAddress
    sheet.Charts.addNewByName("RooflineChart", rect, (roof,), True, False)
    chart = sheet.Charts.getByName("RooflineChart").EmbeddedObject
    chart.lockControllers()
    chart.Diagram = chart.createInstance("com.sun.star.chart.XYDiagram")

    # The roof: the only series so far (first column X, second Y), a line without symbols.
    dia2 = chart.getFirstDiagram()
    chart_type = dia2.getCoordinateSystems()[0].getChartTypes()[0]
    roof_series = chart_type.getDataSeries()[0]
    symbol = uno.createUnoStruct("com.sun.star.chart2.Symbol")
    symbol.Style = uno.Enum("com.sun.star.chart2.SymbolStyle", "NONE")
    roof_series.Symbol = symbol
    roof_series.LineStyle = uno.Enum("com.sun.star.drawing.LineStyle", "SOLID")
    roof_series.LineWidth = 60
    roof_series.Color = ROOF_COLOR

    # The workloads: a second series over other cells, points only.
    provider = chart.getDataProvider()

    sequence, labeled = chart_data(smgr, ctx, provider)

    points = smgr.createInstanceWithContext("com.sun.star.chart2.DataSeries", ctx)
    label = sequence("$Roofline.$A$13", "label")
    points.setData((labeled(sequence("$Roofline.$E$15:$E$17", "values-x")),
                    labeled(sequence("$Roofline.$F$15:$F$17", "values-y"), label)))
    chart_type.addDataSeries(points)
    symbol = uno.createUnoStruct("com.sun.star.chart2.Symbol")
    symbol.Style = uno.Enum("com.sun.star.chart2.SymbolStyle", "STANDARD")
    symbol.StandardSymbol = 0  # square
    symbol.Size = Size(300, 300)
    symbol.FillColor = POINT_COLOR
    symbol.BorderColor = POINT_COLOR
    points.Symbol = symbol
    points.Color = POINT_COLOR
    points.LineStyle = uno.Enum("com.sun.star.drawing.LineStyle", "NONE")
    # Each point carries its workload's name beside it.
    names = ["decode, batch 1", "decode, batch 64, 4096 ctx", "prefill, 2000 tokens"]
    for i, name in enumerate(names):
        point = points.getDataPointByIndex(i)
        field = smgr.createInstanceWithContext("com.sun.star.chart2.DataPointCustomLabelField", ctx)
        field.FieldType = uno.Enum("com.sun.star.chart2.DataPointCustomLabelFieldType", "TEXT")
        field.String = name
        point.CustomLabelFields = (field,)
        dl = uno.createUnoStruct("com.sun.star.chart2.DataPointLabel")
        dl.ShowCustomLabel = True
        point.Label = dl
        point.LabelPlacement = 8 if i < 2 else 6  # com.sun.star.chart.DataLabelPlacement: RIGHT / BOTTOM

    # Titles, legend, logarithmic axes (old API).
    chart.HasMainTitle = True
    chart.Title.String = "Roofline: H100 SXM (989 TFLOP/s dense BF16, 3.35 TB/s)"
    chart.HasLegend = True
    chart.Legend.Alignment = uno.Enum("com.sun.star.chart.ChartLegendPosition", "BOTTOM")
    diagram = chart.Diagram
    diagram.HasXAxisTitle = True
    diagram.XAxisTitle.String = "Arithmetic intensity (FLOP/byte)"
    diagram.HasYAxisTitle = True
    diagram.YAxisTitle.String = "Attainable TFLOP/s"
    for axis in (diagram.XAxis, diagram.YAxis):
        axis.Logarithmic = True
    diagram.XAxis.Min, diagram.XAxis.Max = 0.1, 10000.0
    diagram.XAxis.AutoMin = diagram.XAxis.AutoMax = False
    diagram.YAxis.Min, diagram.YAxis.Max = 0.1, 2000.0
    diagram.YAxis.AutoMin = diagram.YAxis.AutoMax = False
    for axis in (diagram.XAxis, diagram.YAxis):  # 0.1, 1, 10, ... rather than the cells' 0.100, 1.0
        axis.LinkNumberFormatToSource = False
        axis.NumberFormat = chart.NumberFormats.queryKey("General", book.locale, False)
    diagram.Wall.FillStyle = uno.Enum("com.sun.star.drawing.FillStyle", "SOLID")
    diagram.Wall.FillColor = 0xFFFFFF
    diagram.HasXAxisGrid = True
    diagram.HasYAxisGrid = True
    chart.unlockControllers()
    # The chart's name lives on its shape too, or the saved file forgets it ("Object 1" on reload).
    draw_page = sheet.DrawPage
    for i in range(draw_page.Count):
        shape = draw_page.getByIndex(i)
        if shape.supportsService("com.sun.star.drawing.OLE2Shape") and not shape.Name:
            shape.Name = "RooflineChart"


# ---------------------------------------------------------------------------------------------------
# Drop-down lists (cell validation) for the yellow inputs.

# One format for every weight (or for the KV cache): every format the formulas take but "native". The KV cache
# has no checkpoint format; the model-aware step formulas take "native" for the weights too (WEIGHT_FORMATS), and
# ROOFLINE_PLAN "published" (its default since 0.14), "all" and "native" (PLAN_FORMATS).
FORMATS = '"bf16";"fp16";"fp8";"int8";"int4";"nvfp4";"mxfp4";"fp8_block"'
WEIGHT_FORMATS = '"native";' + FORMATS
PLAN_FORMATS = '"published";"all";"native";' + FORMATS
PROFILES = '"typical";"bound";"llama.cpp"'


def drop_down(book, sheet, ref, source, help_text):
    """A drop-down list on an input cell: `source` is a range or a named range (e.g. Catalog_Models, a
    named expression that follows ROOFLINE_MODELS()), or literal texts ("a";"b"). The list is a help,
    not a rule: any other value is taken without a dialog (a model or GPU of the user's own catalog, a
    Hugging Face config's id), and the formulas say what they think of it (ROOFLINE_WHY). A WARNING alert
    would not do: its dialog's default button, Enter, cancels the entry."""
    uno = book.uno
    cell = sheet.getCellRangeByName(ref)
    rule = cell.Validation
    rule.Type = uno.Enum("com.sun.star.sheet.ValidationType", "LIST")
    rule.setFormula1(source)
    rule.IgnoreBlankCells = True
    rule.ShowList = 1  # com.sun.star.sheet.TableValidationVisibility.UNSORTED: in the list's order
    rule.ShowInputMessage = True
    rule.InputTitle = "Choose or type"
    rule.InputMessage = help_text
    rule.ShowErrorMessage = False
    rule.ErrorAlertStyle = uno.Enum("com.sun.star.sheet.ValidationAlertStyle", "INFO")
    cell.Validation = rule


# ---------------------------------------------------------------------------------------------------
# Sheet "Models"

MODELS_TOP = 15      # the header row of the models' table; the models from the next row down
LIST_ROWS = 100      # rows of the models' and the GPUs' tables: ROOFLINE_MODELS() and ROOFLINE_GPUS() grow
                     # with the user's catalog; rows past their end stay blank (a row costs the file 1.7 kB)
MODELS_PRINTED = 50  # rows of the tables printed (the PDF's page)
TPS = [1, 2, 4, 8]   # tensor parallelism tried, within one 8-GPU node


def _listed(first, last, array):
    """An array formula over rows first..last of a column: the one-column `array` (e.g. ROOFLINE_MODELS()),
    then blanks where it ends (an array smaller than its range would show #N/A there)."""
    return f'=IF(ROW($A${first}:$A${last})-{first}<ROWS({array});{array};"")'


def _beyond(array, what):
    """A title's tail, empty unless the list is longer than the table's rows."""
    return (f'&IF(ROWS({array})>{LIST_ROWS};" (the first {LIST_ROWS} of "&ROWS({array})&" {what}: raise LIST_ROWS in '
            f'examples/make_capacity_planning.py)";"")')


def models(book, sheet):
    """Every catalog model on the chosen GPU. Each column is one array formula over LIST_ROWS rows, so
    the table follows ROOFLINE_MODELS() whatever its length, and the rows past its end stay blank."""
    G, B, CTX, PROMPT, W, KV, PROF = "$B$5", "$B$6", "$B$7", "$B$8", "$B$9", "$B$10", "$B$11"
    book.title(sheet, "A1", "Every model of the catalog on one GPU: what fits, the decode step, the first token")
    book.note(sheet, "A2", "Pick a GPU and a workload (yellow). Each row is a model of the catalog (ROOFLINE_MODELS(), "
                           "an array formula) on the fewest GPUs in tensor parallel (1, 2, 4 or 8) whose memory holds "
                           "its weights and the batch's KV cache (ROOFLINE_FIT_BATCH),")
    book.note(sheet, "A3", "then its decode step (ROOFLINE_STEP_MS) and time to first token (ROOFLINE_TTFT_MS) there. "
                           "Where nothing fits, ROOFLINE_WHY says why. Models and GPUs of your own "
                           "(~/.config/libroofline) join the lists.")
    book.put(sheet, "A4", "Inputs", bold=True, size=12)
    book.inputs(sheet, 5, [
        ("GPU", "h100-sxm", "a GPU of the catalog (drop-down: the list on the right, ROOFLINE_GPUS())", None),
        ("Batch", 32, "sequences decoding together", "#,##0"),
        ("Context per sequence", 4096, "tokens (prompt + generated so far)", "#,##0"),
        ("Prompt tokens of the prefill", 2000, "tokens, one prompt", "#,##0"),
        ("Weight format", "bf16", "native (each checkpoint's own), bf16, fp16, fp8, int8, int4, nvfp4, mxfp4 or "
                                  "fp8_block (drop-down)", None),
        ("KV cache format", "bf16", "bf16, fp16, fp8, int8, int4, nvfp4, mxfp4 or fp8_block (drop-down)", None),
        ("Profile", "typical", "typical: the estimate; bound: the ideal roofline, which no engine beats", None),
    ])
    first, last = MODELS_TOP + 1, MODELS_TOP + LIST_ROWS
    drop_down(book, sheet, "B5", "Catalog_GPUs", "A GPU of the catalog (ROOFLINE_GPUS()).")
    drop_down(book, sheet, "B9", WEIGHT_FORMATS, "The format of the weights; native: each checkpoint's own.")
    drop_down(book, sheet, "B10", FORMATS, "The format of the KV cache.")
    drop_down(book, sheet, "B11", PROFILES, "typical: the estimate; bound: the ideal roofline.")

    book.note(sheet, "A12", "\u2013: does not run on that many GPUs (see why on 8). Parameters: all of them "
                            "(a mixture of experts reads only its active experts' per token).")
    book.note(sheet, "A13", "Time to first token: one prompt's prefill alone, no queue (the Planner adds the queue).")
    book.title(sheet, f"A{MODELS_TOP - 1}", '="Models of the catalog on "&' + G + '&", batch "&' + B +
               '&" at "&TEXT(' + CTX + ';"#,##0")&" tokens of context, "&' + W + '&" weights"' +
               _beyond("ROOFLINE_MODELS()", "models"), size=12)
    book.header(sheet, f"A{MODELS_TOP}:L{MODELS_TOP}",
                ["Model", "Parameters (billions)", "Sequences that fit, tp 1", "tp 2", "tp 4", "tp 8",
                 "Tensor parallel (GPUs)", "Decode step (ms)", "Throughput (tok/s)", "Per user (tok/s)",
                 "Time to first token (ms)", "Why it does not run here"])

    def col(c):
        return f"{c}{first}:{c}{last}"

    def column(c, formula, **style):
        """Column c of the table as one array formula, blank where the model's id is."""
        cells = sheet.getCellRangeByName(col(c))
        if c == "A":
            cells.setArrayFormula(formula)
        else:
            cells.setArrayFormula(f'=IF({col("A")}="";"";{formula})')
        book.style(cells, **style)

    m = col("A")
    nothing = '#,##0;-#,##0;"\u2013"'  # 0 sequences fit: a dash
    column("A", _listed(first, last, "ROOFLINE_MODELS()"), bold=True)
    column("B", f'ROOFLINE_MODEL({m};"params_b")', fmt="#,##0.0")
    for j, tp in enumerate(TPS):
        column(_col(2 + j), f"IFERROR(ROOFLINE_FIT_BATCH({m};{G};{CTX};{W};{KV};{tp});0)", fmt=nothing, align="RIGHT")
    need = f"MAX({B};1)"
    C, D, E, F, Gc, H = col("C"), col("D"), col("E"), col("F"), col("G"), col("H")
    column("G", f'IF({C}>={need};1;IF({D}>={need};2;IF({E}>={need};4;IF({F}>={need};8;"\u2013"))))',
           fmt="0", align="CENTER", bold=True)
    # tp is an optional argument (an any), which an array formula passes whole: one call per tp instead.
    def by_tp(call):
        return f'IF(ISNUMBER({Gc});IFERROR(IF({Gc}=1;{call(1)};IF({Gc}=2;{call(2)};IF({Gc}=4;{call(4)};{call(8)})));"");"")'
    column("H", by_tp(lambda tp: f"ROOFLINE_STEP_MS({m};{G};{B};{CTX};{W};{KV};{tp};{PROF})"), fmt="0.00", bold=True)
    column("I", f'IF(ISNUMBER({H});{B}/{H}*1000;"")', fmt="#,##0")
    column("J", f'IF(ISNUMBER({H});1000/{H};"")', fmt="#,##0.0")
    column("K", by_tp(lambda tp: f"ROOFLINE_TTFT_MS({m};{G};{PROMPT};1;{W};{tp};{PROF})"), fmt="#,##0.0")
    # ROOFLINE_WHY takes its arguments as a list, which an array formula does not iterate over: a
    # formula per row, blank for a blank id.
    for r in range(first, last + 1):
        m1 = f"$A{r}"
        why_fit = f'ROOFLINE_WHY("ROOFLINE_FIT_BATCH";{m1};{G};{CTX};{W};{KV};8)'
        why_step = f'ROOFLINE_WHY("ROOFLINE_STEP_MS";{m1};{G};{B};{CTX};{W};{KV};G{r};{PROF})'
        sheet.getCellRangeByName(f"L{r}").setFormula(
            f'=IF(OR({m1}="";ISNUMBER(H{r}));"";IF(ISNUMBER(G{r});{why_step};'
            f'IF(F{r}>0;"only "&TEXT(F{r};"#,##0")&" sequences fit on 8 GPUs";"on 8 GPUs: "&{why_fit})))')
    book.style(sheet.getCellRangeByName(col("L")), color=NOTE_COLOR, wrap=True)
    book.name("Models_Inputs", "Models", "A5:B11")
    book.name("Models_Table", "Models", f"A{MODELS_TOP}:L{last}")
    # The drop-downs' sources: named expressions as long as the lists, so no blank row joins them.
    book.expression("Catalog_Models", f"OFFSET($Models.$A${first};0;0;MIN(ROWS(ROOFLINE_MODELS());{LIST_ROWS});1)")

    # The catalog's GPUs: the drop-down lists' source, and what the planner pays for them.
    book.note(sheet, "N11", "Prices: examples of on-demand list prices per GPU,")
    book.note(sheet, "N12", "each with its source and date in libroofline/catalog/gpus.json;")
    book.note(sheet, "N13", "they date quickly. The Planner takes your own (its price overrides).")
    book.title(sheet, f"N{MODELS_TOP - 1}", "=\"The catalog's GPUs\"" + _beyond("ROOFLINE_GPUS()", "GPUs"), size=12)
    book.header(sheet, f"N{MODELS_TOP}:R{MODELS_TOP}",
                ["GPU", "Memory (GB)", "Bandwidth (TB/s)", "BF16 dense (TFLOP/s)", "Example price (USD/GPU-hour)"])
    n = col("N")
    for c, formula, style in (
        ("N", None, dict(bold=True)),
        ("O", f'ROOFLINE_GPU({n};"hbm_gb")', dict(fmt="#,##0")),
        ("P", f'ROOFLINE_GPU({n};"hbm_tbs")', dict(fmt="0.00")),
        ("Q", f'IFERROR(ROOFLINE_GPU({n};"bf16_tflops");"\u2013")', dict(fmt="#,##0", align="RIGHT")),
        ("R", f'IFERROR(ROOFLINE_GPU({n};"usd_per_gpu_hour");"no price")', dict(fmt="0.00", align="RIGHT")),
    ):
        cells = sheet.getCellRangeByName(col(c))
        cells.setArrayFormula(_listed(first, last, "ROOFLINE_GPUS()") if c == "N" else f'=IF({n}="";"";{formula})')
        book.style(cells, **style)
    book.name("Models_GPUs", "Models", f"N{MODELS_TOP}:R{last}")
    book.expression("Catalog_GPUs", f"OFFSET($Models.$N${first};0;0;MIN(ROWS(ROOFLINE_GPUS());{LIST_ROWS});1)")
    book.widths(sheet, [6.4, 2.4, 2.4, 1.6, 1.6, 1.6, 2.2, 2.0, 2.6, 2.0, 2.4, 8.0, 0.6, 3.4, 1.8, 2.2, 2.2, 2.8])
    book.fit_rows.append(sheet.getCellRangeByName(f"A{first}:L{last}"))
    sheet.getCellRangeByName(f"A{first}:L{last}").VertJustify = book.uno.Enum("com.sun.star.table.CellVertJustify",
                                                                             "CENTER")
    # The printout: the inputs and the first MODELS_PRINTED rows of the tables, not the blank rows below.
    area = sheet.getCellRangeByName(f"A1:R{MODELS_TOP + MODELS_PRINTED}").RangeAddress
    sheet.setPrintAreas((area,))


# ---------------------------------------------------------------------------------------------------
# Sheet "Planner"

ANSWER_ROW = 29   # the Answer's title, below the inputs (rows 5 ... 27)
PLAN_TOP = 37     # the row of ROOFLINE_PLAN's own header row; its configurations from the next row down
PLAN_ROWS = 150   # configurations listed (the array formula's height less its header row)
PLAN_PRINTED = 40  # configurations printed (the PDF's page)
PLAN_COLS = 16    # gpu, tp, weights, batch, replicas, prefill_tp, prefill_replicas, gpus, ttft_ms, tpot_ms,
                  # output_tok_s_per_gpu, usd_per_hour, usd_per_mtok, ep, dp_attention, pp (the 17th,
                  # capacity_tok_s_per_gpu, is left out: the curve beside shows what a GPU sustains)
CURVE_COL = 20    # column U: the ROOFLINE_CURVE array of the cheapest row's GPU and format, its header row at PLAN_TOP
CURVE_ROWS = 60   # points listed (the array formula's height less its header row)
CURVE_COLS = 10   # tpot_ms, tok_s_per_user, capacity_tok_s_per_gpu, batch, ttft_ms, rps, tp, ep, dp_attention, pp
CURVE_COLOR = 0x1F77B4
FRONT_COLOR = 0x2CA02C
ALL_COLOR = 0x7F7F7F


# The options the Planner and the Fleet sheet share, each written once: (label, default, help, number format).
SHARED_INPUTS = {row[0]: row for row in [
    ("Profile", "typical", "typical: the estimate; bound: the ideal", None),
    ("Price overrides (optional)", None, 'USD/GPU-hour: "h100-sxm=2.49, l40s=0.99"', None),
    ("Headroom", 1, "fraction of each replica's capacity the load may use: 0.8 keeps a fifth spare", "0.00"),
    ("Replicas at least", 1, "each pool's when disaggregated: 2 survives the loss of one", "0"),
    ("Electricity", 0, "USD per kWh added to USD per hour (0: none, as in a cloud's GPU-hour)", "0.000"),
    ("PUE", 1, "the datacentre's power over its IT equipment's: at least 1", "0.00"),
    ("Rent", "servers", "servers: whole servers or NVL72 racks; gpus: single GPUs", None),
    ("Price basis", "on-demand", "the catalog's prices: on-demand, reserved or owned (needs electricity)", None),
    ("Years (owned)", 5, "owned: the years a server's purchase price is spread over", "0.#"),
]}


def planner_inputs():
    """The Planner's inputs: (label, default, help, number format), rows 5 ... in ROOFLINE_PLAN's order."""
    return [
        ("Model", "llama-3.1-70b", "drop-down: ROOFLINE_MODELS(), on the Models sheet; or type any id", None),
        ("Load", 100, "requests/s", "#,##0.##"),
        ("Prompt tokens", 2000, "tokens per request", "#,##0"),
        ("Output tokens", 300, "tokens per request", "#,##0"),
        ("Time to first token, target", 500, "ms (a mean, not a percentile)", "#,##0.#"),
        ("Time per output token, target", 50, "ms after the first token (a mean)", "#,##0.#"),
        ("GPU (optional)", None, "empty: the catalog's datacenter GPUs; all: every GPU", None),
        ("Weight format (optional)", None, "empty: the model's published checkpoints; all: every format", None),
        ("KV cache format", "bf16", "bf16, fp16, fp8, int8, int4, nvfp4, mxfp4 or fp8_block", None),
        SHARED_INPUTS["Profile"],
        ("Disaggregated", 0, "1: separate prefill and decode pools", "0"),
        SHARED_INPUTS["Price overrides (optional)"],
        ("Memory for weights and KV", 0.9, "fraction of each GPU's memory", "0.00"),
        SHARED_INPUTS["Headroom"],
        SHARED_INPUTS["Replicas at least"],
        SHARED_INPUTS["Electricity"],
        SHARED_INPUTS["PUE"],
        ("Power budget", 0, "kW: plans above it are left out; 0: none", "#,##0.#"),
        ("Prefill GPU (optional)", None, "disaggregated: the prefill pool's GPUs (one or a list); empty: the decode GPU's",
         None),
        ("Input token price ratio", 0, "an input token's price as a share of an output token's (0: not priced apart)",
         "0.00"),
        SHARED_INPUTS["Rent"],
        SHARED_INPUTS["Price basis"],
        SHARED_INPUTS["Years (owned)"],
    ]


# ROOFLINE_PLAN's arguments that the Planner sets itself, by their place among its arguments: rows (the best of each
# GPU) and percentile (the means: the closed form, quick to recalculate).
PLAN_FIXED = {13: '"best"', 16: "0"}


def planner(book, sheet):
    inputs = planner_inputs()
    # An optional text from an empty cell goes as "" (all GPUs, all formats, no overrides): a reference to
    # an empty cell is no text for the add-in.
    refs = [f'$B${5 + i}&""' if label.endswith("(optional)") else f"$B${5 + i}"
            for i, (label, *_) in enumerate(inputs)]
    for place, value in sorted(PLAN_FIXED.items()):
        refs.insert(place, value)
    plan_call = f"ROOFLINE_PLAN({';'.join(refs)})"
    book.title(sheet, "A1", "Capacity planner: which GPUs, how many, at what cost, for a load and latency targets")
    book.note(sheet, "A2", "Change the yellow inputs. ROOFLINE_PLAN tries every datacenter GPU of the catalog, replicas of 1 to 72 "
                           "GPUs in tensor, expert and pipeline parallelism, the model's published checkpoints, "
                           "and lists for each GPU the configurations")
    book.note(sheet, "A3", "that serve the load within both targets and that no other beats on both cost and TPOT, "
                           "cheapest first (docs/serving-model.md). Prices are examples that date quickly: give yours.")
    book.put(sheet, "A4", "Inputs", bold=True, size=12)
    book.inputs(sheet, 5, [(label, value, help_text, fmt) for label, value, help_text, fmt in inputs])
    drop_down(book, sheet, "B5", "Catalog_Models", "A model of the catalog (ROOFLINE_MODELS()).")
    drop_down(book, sheet, "B11", "Catalog_GPUs", "Empty: the datacenter GPUs of the catalog (all: every one, GeForce cards "
                                                 "and DGX Spark too).")
    drop_down(book, sheet, "B12", PLAN_FORMATS, "Empty or published: the model's published checkpoints, each in its "
                                                "own formats. all: those and every format the GPU computes, in every "
                                                "module. native: the config's own formats. Or one format for every "
                                                "weight.")
    drop_down(book, sheet, "B13", FORMATS, "The format of the KV cache.")
    drop_down(book, sheet, "B14", PROFILES, "typical: the estimate; bound: the ideal roofline.")
    drop_down(book, sheet, "B15", '"0";"1"', "0: colocated; 1: disaggregated prefill and decode.")
    row_of = {label: 5 + i for i, (label, *_) in enumerate(inputs)}
    drop_down(book, sheet, f"B{row_of['Prefill GPU (optional)']}", "Catalog_GPUs",
              "Empty: the prefill pool on the decode pool's GPU; or one GPU or a list (disaggregated only).")
    drop_down(book, sheet, f"B{row_of['Rent']}", '"servers";"gpus"',
              "servers: whole servers (8 GPUs) or NVL72 racks (72) are rented and priced; gpus: each GPU alone.")
    drop_down(book, sheet, f"B{row_of['Price basis']}", '"on-demand";"reserved";"owned"',
              "on-demand: the catalog's on-demand examples; reserved: its reserved or committed examples; owned: a "
              "server's purchase price over the years, with the electricity (give its price above).")
    book.style(sheet.getCellRangeByName(f"B5:B{4 + len(inputs)}"), align="LEFT")

    # The answer in one line, from the first row of the array.
    top, first, last = PLAN_TOP, PLAN_TOP + 1, PLAN_TOP + PLAN_ROWS
    a = ANSWER_ROW
    count = f"$B${a + 1}"
    book.put(sheet, f"A{a}", "Answer", bold=True, size=12)
    book.put(sheet, f"A{a + 1}", "Configurations found")
    book.put(sheet, f"B{a + 1}", f"=IFERROR(ROWS({plan_call})-1;0)", fmt="#,##0", bold=True, align="LEFT")
    book.put(sheet, f"C{a + 1}", f'=IF({count}>{PLAN_ROWS};"the {PLAN_ROWS} cheapest are listed below";"")',
             color=NOTE_COLOR)
    r = first
    why = f'ROOFLINE_WHY("ROOFLINE_PLAN";{";".join(refs)})'
    pool = (f'IF(G{r}>0;" for decode, and "&G{r}&IF(G{r}=1;" prefill replica";" prefill replicas")&" of tp "&F{r};"")')
    layout = (f'IF(N{r}>1;", experts over "&N{r};"")&IF(O{r}>1;", attention in "&O{r}&" groups";"")&'
              f'IF(P{r}>1;", "&P{r}&" pipeline stages";"")')
    basis = f"$B${row_of['Price basis']}"
    price = (f'IF(ISNUMBER(L{r});": $"&TEXT(L{r};"#,##0.00")&" per hour ("&{basis}&"), $"&TEXT(M{r};"0.000")&'
             f'" per million output tokens";": no "&{basis}&" price in the catalog (add one in the price overrides)")')
    summary = (f'=IF({count}=0;"No configuration: "&{why};'
               f'"Cheapest: "&H{r}&" \u00d7 "&A{r}&" ("&E{r}&IF(E{r}=1;" replica";" replicas")&" of tp "&B{r}&{layout}&", "&C{r}&'
               f'" weights, batch "&TEXT(D{r};"0")&{pool}&")"&{price}&'
               f'"; TTFT "&TEXT(I{r};"0")&" ms, TPOT "&TEXT(J{r};"0.0")&" ms")')
    book.put(sheet, f"A{a + 2}", summary, bold=True, color=TITLE_COLOR, size=11)
    # The cheapest row's published checkpoint (the plan's 18th column, since 0.14): the curve beside computes it.
    book.put(sheet, f"A{a + 3}", "Its checkpoint")
    book.put(sheet, f"B{a + 3}", f'=IF({count}=0;"";IFERROR(IF(INDEX({plan_call};2;18)="";"none published in these formats";'
                                 f'INDEX({plan_call};2;18));""))', bold=True, align="LEFT")
    # Its power (the plan's 22nd and 23rd columns, since 0.14): the GPUs at full load, their servers' share, the PUE.
    book.put(sheet, f"A{a + 4}", "Its power")
    book.put(sheet, f"B{a + 4}", f'=IF({count}=0;"";IFERROR(TEXT(INDEX({plan_call};2;22);"#,##0.0")&" kW, "&'
                                 f'TEXT(INDEX({plan_call};2;23);"0.00")&" J per output token";"no board power in the '
                                 f'catalog"))', bold=True, align="LEFT")
    book.name("Planner_Answer", "Planner", f"A{a + 1}:B{a + 4}")

    # The ROOFLINE_PLAN array: its own header row, then the configurations. The array formula spans
    # more rows than there are configurations; IF leaves the rows beyond them empty, IFERROR the whole
    # table when nothing is feasible (the answer above then says why), so no cell shows #N/A.
    book.title(sheet, f"A{top - 2}", f"Every configuration, cheapest first (ROOFLINE_PLAN, an array formula; a printout shows the first "
               f"{PLAN_PRINTED})", size=12)
    book.header(sheet, f"A{top - 1}:R{top - 1}",
                ["GPU", "GPUs per replica (tp)", "Weights", "Batch per replica", "Replicas",
                 "Prefill tp", "Prefill replicas", "GPUs in total", "TTFT at full load (ms)",
                 "TPOT at full load (ms)", "Output tok/s per GPU", "USD per hour", "USD per million output tokens",
                 "Experts over (ep)", "Attention groups (dp_attention)", "Pipeline stages (pp)",
                 "Pareto front", "Front: USD per million"])
    area = f"A{top}:{_col(PLAN_COLS - 1)}{last}"
    cells = sheet.getCellRangeByName(area)
    cells.setArrayFormula(f'=IFERROR(IF((ROW({area})-ROW($A${top})<={count})*(COLUMN({area})>0);{plan_call};"");"")')
    names = sheet.getCellRangeByName(f"A{top}:{_col(PLAN_COLS - 1)}{top}")
    book.style(names, italic=True, color=NOTE_COLOR, align="CENTER")
    names.ShrinkToFit = True
    for col, fmt in zip("BCDEFGHIJKLMNOP", ["0", None, "#,##0", "#,##0", "0;-0;", "0;-0;", "#,##0", "#,##0",
                                            "0.0", "#,##0", "#,##0.00", "0.000", "0", "0", "0"]):
        rng = sheet.getCellRangeByName(f"{col}{first}:{col}{last}")
        book.style(rng, fmt=fmt, align="CENTER" if col in "BCNOP" else None)
    book.style(sheet.getCellRangeByName(f"A{first}:A{last}"), bold=True)
    book.style(sheet.getCellRangeByName(f"M{first}:M{last}"), bold=True)
    # The Pareto front: no other configuration has a lower TPOT at a cost no higher, or a lower cost at a
    # TPOT no higher.
    tpot, cost = f"$J${first}:$J${last}", f"$M${first}:$M${last}"
    for ref, text in ((f"Q{top}", "pareto"), (f"R{top}", "front_usd_per_mtok")):
        book.put(sheet, ref, text, italic=True, color=NOTE_COLOR, align="CENTER").ShrinkToFit = True
    for r in range(first, last + 1):
        book.put(sheet, f"Q{r}", f'=IF(ISNUMBER(M{r});IF(COUNTIFS({tpot};"<"&J{r};{cost};"<="&M{r})+'
                                 f'COUNTIFS({tpot};"<="&J{r};{cost};"<"&M{r})=0;"yes";"");"")', align="CENTER",
                 color=FRONT_COLOR, bold=True)
        book.put(sheet, f"R{r}", f'=IF(Q{r}="yes";M{r};"")', fmt="0.000")
    book.note(sheet, f"A{last + 1}", "Rows beyond the configurations stay empty. USD per hour and per million "
                                     "output tokens are empty where the GPU has no price: give it one in the price "
                                     "overrides. Pareto front: no other configuration is both cheaper and faster "
                                     "(a lower TPOT).")
    book.name("Planner_Inputs", "Planner", f"A5:B{4 + len(inputs)}")
    book.name("Planner_Table", "Planner", f"A{top}:R{last}")
    book.widths(sheet, [5.6, 2.8, 1.8, 1.8, 1.8, 1.8, 1.8, 1.8, 1.9, 1.9, 2.0, 2.0, 2.2, 1.8, 2.0, 1.8, 1.9, 2.2])
    add_cost_chart(book, sheet, first, last)
    planner_curve(book, sheet, first)


def planner_curve(book, sheet, first):
    """ROOFLINE_CURVE for the cheapest configuration's GPU and weight format (the front over every layout), and its
    chart beside the cost chart: output tokens/s per GPU against tokens/s per user, with the TPOT target."""
    top, c0 = PLAN_TOP, CURVE_COL
    c_last = c0 + CURVE_COLS - 1
    left, right = _col(c0), _col(c_last)
    last = top + CURVE_ROWS
    call = (f'ROOFLINE_CURVE($B$5;$A${first};$B$7;$B$8;IF(ISERROR(FIND("/";$B${ANSWER_ROW + 3}));$C${first};$B${ANSWER_ROW + 3});$B$13&"";0;'
            f'$B$14&"")')
    count = f"${_col(c0 + 1)}${top - 2}"
    book.title(sheet, f"{left}{top - 3}", "Throughput against interactivity: the cheapest row's GPU and weights, every "
               "layout (ROOFLINE_CURVE, an array formula)", size=12)
    book.put(sheet, f"{left}{top - 2}", "Points")
    book.put(sheet, count.replace("$", ""), f"=IFERROR(ROWS({call})-1;0)", fmt="#,##0", bold=True, align="LEFT")
    book.header(sheet, f"{left}{top - 1}:{right}{top - 1}",
                ["TPOT (ms)", "Output tok/s per user", "Output tok/s per GPU", "Batch per replica", "TTFT (ms)",
                 "Requests/s per replica", "GPUs per replica (tp)", "Experts over (ep)", "Attention groups",
                 "Pipeline stages"])
    area = f"{left}{top}:{right}{last}"
    sheet.getCellRangeByName(area).setArrayFormula(
        f'=IFERROR(IF((ROW({area})-ROW(${left}${top})<={count})*(COLUMN({area})>0);{call};"");"")')
    names = sheet.getCellRangeByName(f"{left}{top}:{right}{top}")
    book.style(names, italic=True, color=NOTE_COLOR, align="CENTER")
    names.ShrinkToFit = True
    for i, fmt in enumerate(["0.0", "#,##0.0", "#,##0", "#,##0", "#,##0", "0.00", "0", "0", "0", "0"]):
        book.style(sheet.getCellRangeByName(f"{_col(c0 + i)}{top + 1}:{_col(c0 + i)}{last}"), fmt=fmt, align="CENTER")
    # The TPOT target as a vertical line: two points at 1000 / target tokens/s per user.
    mark = _col(c_last + 2)
    book.put(sheet, f"{mark}{top - 1}", "TPOT target", italic=True, color=NOTE_COLOR)
    for r, y in ((top + 1, 0), (top + 2, f"=MAX({_col(c0 + 2)}{top + 1}:{_col(c0 + 2)}{last})")):
        book.put(sheet, f"{mark}{r}", "=1000/$B$10", fmt="#,##0.0")
        book.put(sheet, f"{_col(c_last + 3)}{r}", y, fmt="#,##0")
    book.note(sheet, f"{left}{last + 1}", "Each row: a replica at full load at one decode batch (means). A row stays "
                                          "where no faster one sustains as much per GPU: the front over replica sizes "
                                          "and layouts.")
    book.name("Planner_Curve", "Planner", f"{left}{top}:{right}{last}")
    add_curve_chart(book, sheet, top + 1, last, mark)


# The Calibrate sheet: the measured rows' range (a header row above it), and the rows the example fills.
CAL_TOP, CAL_ROWS = 13, 40
H200_GRAPH = Path(__file__).resolve().parent.parent / "tests" / "data" / "calibration" / "h200-graph.csv"


def h200_rows(model="llama-3-8b"):
    """The rows of one model in h200-graph.csv, in ROOFLINE_CALIBRATE's columns."""
    import csv  # noqa: PLC0415
    rows = []
    with open(H200_GRAPH, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["model"] != model:
                continue
            decode = r["metric"] == "step_ms"
            rows.append([r["model"], r["gpu"], r["weight_dtype"], r["kv_dtype"], float(r["tp"]), float(r["batch"]),
                         float(r["ctx_mean"] if decode else r["prompt_tokens"]), r["metric"], float(r["value"])])
    return rows


def calibrate(book, sheet):
    rows = h200_rows()
    first, last = CAL_TOP, CAL_TOP + CAL_ROWS - 1
    data = f"$A${first}:$I${last}"
    book.title(sheet, "A1", "Calibrate: a profile fitted on your own measurements, in the sheet")
    book.note(sheet, "A2", "Put your measured rows in the yellow range (one row each: model, GPU, formats, tp, batch, context, "
                           "step_ms for a decode step or ttft_ms for a prefill, and the measured ms); empty rows are skipped.")
    book.note(sheet, "A3", "ROOFLINE_CALIBRATE fits the profile's parameters on them and gives the profile as a text that "
                           "every formula's profile argument takes: the workbook carries its calibration, no file needed.")
    book.put(sheet, "A5", "Fitted profile (ROOFLINE_CALIBRATE)", bold=True, size=12)
    book.put(sheet, "A6", f"=IFERROR(ROOFLINE_CALIBRATE({data});ROOFLINE_WHY(\"ROOFLINE_CALIBRATE\";{data}))",
             bold=True, color=TITLE_COLOR)
    book.note(sheet, "A7", "Use it: a profile argument that refers to $Calibrate.$A$6, e.g. "
                           "=ROOFLINE_STEP_MS(\"llama-3-8b\"; \"h200\"; 8; 4096; ; ; 1; $Calibrate.$A$6), or the Planner's "
                           "profile cell set to =$Calibrate.$A$6.")
    # What the fit changes: the rows' median error under typical, under the fitted profile and in leave-one-out.
    book.header(sheet, "A8:D8", ["Median |error| over the rows", "typical", "fitted", "leave-one-out"])
    book.put(sheet, "A9", "of the measured ms, %")
    for ref, col in (("B9", "U"), ("C9", "R"), ("D9", "S")):
        cell = sheet.getCellRangeByName(ref)
        cell.setArrayFormula(f'=IFERROR(MEDIAN(IF(ISNUMBER(${col}${first}:${col}${last});'
                             f'ABS(${col}${first}:${col}${last})));"")')
        book.style(cell, fmt="0.0", bold=col == "R")
    book.name("Calibrate_Answer", "Calibrate", "A6:A6")
    book.name("Calibrate_Errors", "Calibrate", "A8:D9")

    book.put(sheet, f"A{first - 2}", "Measured rows (here: 18 steps of Llama 3 8B on one H200, a PyTorch step in one "
                                     "CUDA graph, measured 2026-11-30; tests/data/calibration/h200-graph.csv)",
             bold=True, size=12)
    book.header(sheet, f"A{first - 1}:I{first - 1}", ["model", "gpu", "weight_dtype", "kv_dtype", "tp", "batch",
                                                      "context", "metric", "value (ms)"])
    book.style(sheet.getCellRangeByName(f"A{first}:I{last}"), bg=INPUT_BG)
    for i, r in enumerate(rows):
        book.row(sheet, f"A{first + i}", r)
    # Each row's predictions: the array has its own header row, then one row per measured row.
    book.header(sheet, f"K{first - 1}:S{first - 1}", ["row", "model", "gpu", "metric", "measured (ms)", "fitted (ms)",
                                                      "leave-one-out (ms)", "error %", "leave-one-out error %"])
    area = f"K{first - 1}:S{last}"
    count = f"ROWS(ROOFLINE_CALIBRATE_ROWS({data}))"
    cells = sheet.getCellRangeByName(area)
    cells.setArrayFormula(f'=IFERROR(IF((ROW({area})-ROW($K${first - 1})<{count})*(COLUMN({area})>0);'
                          f'ROOFLINE_CALIBRATE_ROWS({data});"");"")')
    names = sheet.getCellRangeByName(f"K{first - 1}:S{first - 1}")
    book.style(names, italic=True, color=NOTE_COLOR, align="CENTER")
    for col, fmt in zip("KOPQRS", ["0", "0.000", "0.000", "0.000", "0.0", "0.0"]):
        book.style(sheet.getCellRangeByName(f"{col}{first}:{col}{last}"), fmt=fmt)
    # Each row under typical, beside the fit: what the calibration corrects.
    book.header(sheet, f"T{first - 1}:U{first - 1}", ["typical (ms)", "typical error %"])
    for r in range(first, last + 1):
        tp = f'IF(E{r}="";1;E{r})'
        step = f'ROOFLINE_STEP_MS(A{r};B{r};F{r};G{r};C{r};D{r};{tp};"typical")'
        ttft = f'ROOFLINE_TTFT_MS(A{r};B{r};G{r};F{r};C{r};{tp};"typical")'
        book.put(sheet, f"T{r}", f'=IF(A{r}="";"";IFERROR(IF(H{r}="step_ms";{step};{ttft});""))', fmt="0.000")
        book.put(sheet, f"U{r}", f'=IF(ISNUMBER(T{r});(T{r}/I{r}-1)*100;"")', fmt="0.0")
    book.name("Calibrate_Rows", "Calibrate", f"K{first - 1}:U{first + len(rows) - 1}")
    book.widths(sheet, [4.2, 1.6, 2.4, 2.2, 1.2, 1.4, 1.6, 1.7, 1.8, 0.6, 1.2, 2.2, 1.6, 1.7, 2.3, 2.3, 2.2, 2.4, 3.0,
                        1.8, 1.8])


TAILS_TOP = 22     # the header row of the Tails table; one row per load below it
TAILS_LOADS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0]
P99_COLOR = 0xC0504D


def tails_inputs():
    """The Tails sheet's inputs: (label, default, help, number format), rows 5 ... in ROOFLINE_SIMULATE's order."""
    return [
        ("Model", "llama-3.1-70b", "a catalog id, or a config.json in a cell", None),
        ("GPU", "h100-sxm", "a catalog id", None),
        ("Weight format", "fp8", "native, a format, or a published checkpoint's id", None),
        ("GPUs per replica (tp)", 4, "tensor parallel", "0"),
        ("Prompt tokens", 2000, "tokens per request (the mean)", "#,##0"),
        ("Output tokens", 300, "tokens per request (the mean)", "#,##0"),
        ("Arrivals", "poisson", "poisson, constant or gamma", None),
        ("Burstiness (cv)", 1, "gamma's coefficient of variation: 1 is Poisson's, 4 bursty", "0.0"),
        ("Requests simulated", 1000, "per load; the same seed at every load", "#,##0"),
        ("Time to first token, target", 500, "ms: the goodput counts requests within both", "#,##0"),
        ("Time per output token, target", 50, "ms", "#,##0.#"),
        ("Profile", "typical", "the engine's caps and fitted efficiencies", None),
    ]


def tails(book, sheet):
    """Percentiles against load: ROOFLINE_SIMULATE at shares of a replica's capacity, and their chart."""
    inputs = tails_inputs()
    book.title(sheet, "A1", "Tails: percentiles of the time to first token and per output token against the load")
    book.note(sheet, "A2", "ROOFLINE_SIMULATE runs one replica iteration by iteration (continuous batching, chunked "
                           "prefill, the engine's caps, KV memory) under a stream of requests at each load below, and "
                           "gives the percentiles the means hide.")
    book.note(sheet, "A3", "Loads are shares of what the replica completes at its largest batch (the closed form, no "
                           "targets). Change the yellow inputs; bursts (gamma, cv 4) raise the p99 at the same load.")
    book.put(sheet, "A4", "Inputs", bold=True, size=12)
    book.inputs(sheet, 5, inputs)
    book.style(sheet.getCellRangeByName("B5:B16"), align="LEFT")
    drop_down(book, sheet, "B11", '"poisson";"constant";"gamma"', "How requests arrive.")
    drop_down(book, sheet, "B16", PROFILES, "typical: the estimate; bound: the ideal roofline.")
    book.put(sheet, "A18", "Capacity of one replica", bold=True)
    book.put(sheet, "B18", '=ROOFLINE_REPLICA_RPS($B$5;$B$6;$B$9;$B$10;1000000;1000000;$B$7;"";$B$8;$B$16)',
             fmt="0.00", bold=True, align="LEFT")
    book.put(sheet, "C18", "requests/s at its largest batch (ROOFLINE_REPLICA_RPS without targets)", color=NOTE_COLOR)
    book.name("Tails_Inputs", "Tails", "A5:B18")
    top = TAILS_TOP
    book.title(sheet, f"A{top - 1}", "Percentiles at each load (ROOFLINE_SIMULATE; ms)", size=12)
    book.header(sheet, f"A{top}:I{top}", ["Load (share of capacity)", "Requests/s", "TTFT p50", "TTFT p90", "TTFT p99",
                                          "TPOT p50", "TPOT p99", "Goodput (requests/s)", "Mean batch"])
    call = ('ROOFLINE_SIMULATE($B$5;$B$6;B{r};$B$9;$B$10;$B$7;"";$B$8;$B$16;1;1;1;$B$11;$B$12;$B$13;1;"fixed";0;'
            '$B$14;$B$15)')
    # (column, row of the result, column of the result): the latencies' rows 2 (ttft) and 3 (tpot), the p50, p90,
    # p99 columns 3 to 5; goodput and mean batch in the mean column (2) of their rows.
    cells = [("C", 2, 3), ("D", 2, 4), ("E", 2, 5), ("F", 3, 3), ("G", 3, 5), ("H", 7, 2), ("I", 8, 2)]
    # Each load's ROOFLINE_SIMULATE array once (15 rows x 5 columns, below the table), the table's cells INDEX into it.
    arrays = top + len(TAILS_LOADS) + 5
    book.title(sheet, f"A{arrays - 2}", "The simulation at each load: each ROOFLINE_SIMULATE array (metric by statistic)",
               size=12)
    for i, share in enumerate(TAILS_LOADS):
        r = top + 1 + i
        a_top = arrays + 16 * i
        area = f"B{a_top}:F{a_top + 14}"
        book.put(sheet, f"A{a_top}", f"=TEXT(A{r};\"0%\")&\" of the capacity\"", bold=True)
        sheet.getCellRangeByName(area).setArrayFormula(f'=IFERROR({call.replace("B{r}", f"$B${r}")};"")')
        book.put(sheet, f"A{r}", share, fmt="0%", bg=INPUT_BG)
        book.put(sheet, f"B{r}", f"=A{r}*$B$18", fmt="0.00")
        for col, row, column in cells:
            book.put(sheet, f"{col}{r}", f'=IFERROR(INDEX($B${a_top}:$F${a_top + 14};{row};{column});"")',
                     fmt="0.00" if col == "H" else "#,##0.0")
    last = top + len(TAILS_LOADS)
    book.name("Tails_Table", "Tails", f"A{top}:I{last}")
    book.note(sheet, f"A{last + 1}", "TTFT: arrival to the first token; TPOT: each request's (end to end - TTFT) / "
                                     "(output tokens - 1); goodput: requests within both targets per second. Near and "
                                     "above the capacity the queue grows with the requests simulated.")
    book.widths(sheet, [5.2, 2.4, 2.0, 2.0, 2.0, 2.0, 2.0, 2.6, 2.0])
    xy_chart(book, sheet, "TailsChart", f"K{4}", "Time to first token against load", "requests/s", "ms",
             [(f"$Tails.$B${top + 1}:$B${last}", f"$Tails.$C${top + 1}:$C${last}", f"$Tails.$C${top}", CURVE_COLOR,
               0, 250, True),
              (f"$Tails.$B${top + 1}:$B${last}", f"$Tails.$E${top + 1}:$E${last}", f"$Tails.$E${top}", P99_COLOR,
               1, 250, True)],
             log_y=True)


FLEET_CSV = Path(__file__).resolve().parent / "fleet.csv"  # the workloads the Fleet sheet starts with
FLEET_ROWS = 8          # workload rows (6 ... 13): the filled ones are planned, empty ones skipped
FLEET_TOP = 33          # the row of ROOFLINE_FLEET's own header row
FLEET_COLS = 19         # model, rps, gpu, weights, checkpoint, tp, engine_tp, pp, ep, dp_attention, replicas, gpus,
                        # servers, ttft_ms, tpot_ms, usd_per_hour, usd_per_month, usd_per_mtok, kw


def fleet_workloads():
    """examples/fleet.csv's workloads: (model, rps, prompt, output, ttft, tpot, gpu)."""
    lines = [line.split(",") for line in FLEET_CSV.read_text(encoding="utf-8").splitlines() if line][1:]
    return [(m, float(r), float(p), float(o), float(t1), float(t2), g) for m, r, p, o, t1, t2, g in lines]


def fleet_options():
    """The Fleet sheet's options: (label, default, help, number format), rows 16 ... in ROOFLINE_FLEET's order."""
    return [
        ("GPU (optional)", None, "empty: the catalog's datacenter GPUs (a workload's own GPU column wins)", None),
        ("Weight format (optional)", None, "empty: the models' published checkpoints", None),
        *(SHARED_INPUTS[label] for label in ("Profile", "Price overrides (optional)", "Headroom", "Replicas at least",
                                             "Price basis", "Years (owned)", "Electricity", "PUE", "Rent")),
    ]


def fleet(book, sheet):
    """Several models at once: ROOFLINE_FLEET over the yellow workloads, each on its cheapest configuration, and
    the fleet's totals."""
    book.title(sheet, "A1", "Fleet: several models at once, each on its cheapest configuration, and the totals")
    book.note(sheet, "A2", "Each workload (a yellow row) is planned as the Planner plans one, with the options below, "
                           "and its cheapest configuration kept (ROOFLINE_FLEET); each rents its own servers.")
    book.note(sheet, "A3", "Add a row for another model, leave a row empty to skip it; a GPU in a row plans that "
                           "workload on it. Prices are examples that date quickly: give yours.")
    book.put(sheet, "A4", "Workloads", bold=True, size=12)
    book.header(sheet, "A5:G5", ["Model", "Load (requests/s)", "Prompt tokens", "Output tokens", "TTFT target (ms)",
                                 "TPOT target (ms)", "GPU (optional)"])
    first, last = 6, 6 + FLEET_ROWS - 1
    rows = fleet_workloads()
    for i in range(FLEET_ROWS):
        r = first + i
        values = rows[i] if i < len(rows) else (None,) * 7
        for c, (v, fmt) in enumerate(zip(values, [None, "#,##0.##", "#,##0", "#,##0", "#,##0", "#,##0.#", None])):
            book.put(sheet, f"{_col(c)}{r}", v if v != "" else None, fmt=fmt, bg=INPUT_BG)
    book.style(sheet.getCellRangeByName(f"A{first}:G{last}"), align="LEFT")
    options = fleet_options()
    o_first = last + 2
    book.put(sheet, f"A{o_first}", "Options", bold=True, size=12)
    book.inputs(sheet, o_first + 1, options)
    book.style(sheet.getCellRangeByName(f"B{o_first + 1}:B{o_first + len(options)}"), align="LEFT")
    row_of = {label: o_first + 1 + i for i, (label, *_) in enumerate(options)}
    drop_down(book, sheet, f"B{row_of['Profile']}", PROFILES, "typical: the estimate; bound: the ideal roofline.")
    drop_down(book, sheet, f"B{row_of['Price basis']}", '"on-demand";"reserved";"owned"',
              "on-demand: the catalog's on-demand examples; reserved: its reserved or committed examples; owned: a "
              "server's purchase price over the years, with the electricity (give its price).")
    drop_down(book, sheet, f"B{row_of['Rent']}", '"servers";"gpus"', "servers: whole servers or racks; gpus: single GPUs.")
    refs = [f"$A${first}:$G${last}"] + [f'$B${row_of[label]}&""' if label.endswith("(optional)") else f"$B${row_of[label]}"
                                         for label, *_ in options]
    call = f"ROOFLINE_FLEET({';'.join(refs)})"
    # The answer: the total row (the array's last).
    a = o_first + len(options) + 2
    book.put(sheet, f"A{a}", "Answer", bold=True, size=12)
    total = f"ROWS({call})"
    cell = lambda col: f"INDEX({call};{total};{col})"  # noqa: E731
    book.put(sheet, f"A{a + 1}", f'=IFERROR("Total: "&TEXT({cell(12)};"#,##0")&" GPUs in "&TEXT({cell(13)};"#,##0")&'
                                 f'" servers, "&IF(ISNUMBER({cell(16)});"$"&TEXT({cell(16)};"#,##0.00")&" per hour, $"&'
                                 f'TEXT({cell(17)};"#,##0")&" per month ("&$B${row_of["Price basis"]}&"), $"&'
                                 f'TEXT({cell(18)};"0.000")&" per million output tokens";"no price for every workload")&'
                                 f'IF(ISNUMBER({cell(19)});", "&TEXT({cell(19)};"#,##0.0")&" kW";"");'
                                 f'"No plan: "&ROOFLINE_WHY("ROOFLINE_FLEET";{";".join(refs)}))',
             bold=True, color=TITLE_COLOR, size=11)
    book.name("Fleet_Answer", "Fleet", f"A{a + 1}:A{a + 1}")
    top = FLEET_TOP
    book.title(sheet, f"A{top - 2}", "Each workload's plan and the totals (ROOFLINE_FLEET, an array formula)", size=12)
    book.header(sheet, f"A{top - 1}:{_col(FLEET_COLS - 1)}{top - 1}",
                ["Model", "Load (requests/s)", "GPU", "Weights", "Checkpoint", "GPUs per replica", "Engine tp",
                 "Pipeline stages", "Experts over (ep)", "Attention groups", "Replicas", "GPUs", "Servers",
                 "TTFT at full load (ms)", "TPOT at full load (ms)", "USD per hour", "USD per month",
                 "USD per million output tokens", "kW"])
    height = FLEET_ROWS + 2  # the header, the workloads, the total
    area = f"A{top}:{_col(FLEET_COLS - 1)}{top + height - 1}"
    sheet.getCellRangeByName(area).setArrayFormula(
        f'=IFERROR(IF((ROW({area})-ROW($A${top})<ROWS({call}))*(COLUMN({area})>0);{call};"");"")')
    names = sheet.getCellRangeByName(f"A{top}:{_col(FLEET_COLS - 1)}{top}")
    book.style(names, italic=True, color=NOTE_COLOR, align="CENTER")
    names.ShrinkToFit = True
    for i, fmt in enumerate([None, "#,##0.##", None, None, None, "0", "0", "0", "0", "0", "#,##0", "#,##0", "#,##0",
                             "#,##0", "0.0", "#,##0.00", "#,##0", "0.000", "#,##0.0"]):
        if fmt:
            book.style(sheet.getCellRangeByName(f"{_col(i)}{top + 1}:{_col(i)}{top + height - 1}"), fmt=fmt)
    book.style(sheet.getCellRangeByName(f"A{top + 1}:A{top + height - 1}"), bold=True)
    book.note(sheet, f"A{top + height}", "The last row is the total: GPUs, servers, USD per hour and month and kW "
                                         "summed, USD per million output tokens of all the workloads' output. Rows "
                                         "beyond it stay empty.")
    book.name("Fleet_Inputs", "Fleet", f"A{first}:G{last}", key_table=False)
    book.name("Fleet_Table", "Fleet", f"A{top}:{_col(FLEET_COLS - 1)}{top + height - 1}")
    book.widths(sheet, [4.8, 2.2, 2.0, 2.0, 5.2, 1.8, 2.2, 1.6, 1.6, 1.8, 1.8, 1.6, 1.6, 1.9, 1.9, 2.0, 2.2, 2.2, 1.6])


def xy_chart(book, sheet, name, at, title, x_title, y_title, series, log_y=False, missing=0):
    """An XY chart of `series` ((x range, y range, label cell, color, symbol, symbol size, line): symbol a
    StandardSymbol or None for none) placed at cell `at`, 9.8 x 7.7 cm, its legend below. `missing`: how empty
    cells draw (com.sun.star.chart.MissingValueTreatment: 0 a gap, 2 the line continues over them)."""
    uno = book.uno
    from com.sun.star.awt import Rectangle, Size  # noqa: PLC0415
    ctx, smgr = book.ctx, book.ctx.ServiceManager
    pos = sheet.getCellRangeByName(at).Position
    first_y = series[0][1].split(".", 1)[1].replace("$", "")
    sheet.Charts.addNewByName(name, Rectangle(pos.X, pos.Y, 9800, 7700),
                              (sheet.getCellRangeByName(first_y).RangeAddress,), False, False)
    chart = sheet.Charts.getByName(name).EmbeddedObject
    chart.lockControllers()
    chart.Diagram = chart.createInstance("com.sun.star.chart.XYDiagram")
    chart_type = chart.getFirstDiagram().getCoordinateSystems()[0].getChartTypes()[0]
    sequence, labeled = chart_data(smgr, ctx, chart.getDataProvider())

    def one(x, y, label, color, standard_symbol, size, line):
        s = smgr.createInstanceWithContext("com.sun.star.chart2.DataSeries", ctx)
        s.setData((labeled(sequence(x, "values-x")), labeled(sequence(y, "values-y"), sequence(label, "label"))))
        symbol = uno.createUnoStruct("com.sun.star.chart2.Symbol")
        symbol.Style = uno.Enum("com.sun.star.chart2.SymbolStyle", "NONE" if standard_symbol is None else "STANDARD")
        symbol.StandardSymbol = standard_symbol or 0
        symbol.Size = Size(size, size)
        symbol.FillColor = symbol.BorderColor = color
        s.Symbol = symbol
        s.Color = color
        s.LineStyle = uno.Enum("com.sun.star.drawing.LineStyle", "SOLID" if line else "NONE")
        s.LineWidth = 50
        return s

    chart_type.setDataSeries(tuple(one(*spec) for spec in series))
    chart.HasMainTitle = True
    chart.Title.String = title
    chart.Title.CharHeight = 11
    chart.HasLegend = True
    chart.Legend.Alignment = uno.Enum("com.sun.star.chart.ChartLegendPosition", "BOTTOM")
    diagram = chart.Diagram
    diagram.HasXAxisTitle = True
    diagram.XAxisTitle.String = x_title
    diagram.HasYAxisTitle = True
    diagram.YAxisTitle.String = y_title
    diagram.YAxis.Logarithmic = log_y
    for axis in (diagram.XAxis, diagram.YAxis):
        axis.LinkNumberFormatToSource = False
        axis.NumberFormat = chart.NumberFormats.queryKey("General", book.locale, False)
    diagram.Wall.FillStyle = uno.Enum("com.sun.star.drawing.FillStyle", "SOLID")
    diagram.Wall.FillColor = 0xFFFFFF
    diagram.HasXAxisGrid = True
    diagram.HasYAxisGrid = True
    diagram.MissingValueTreatment = missing
    chart.unlockControllers()
    _name_chart_shape(sheet, name)


def add_cost_chart(book, sheet, first, last):
    """XY scatter: USD per million output tokens (y) against TPOT (x), every configuration and the front (diamonds
    on a line, circles elsewhere). The front's line runs through its points in the table's order (cheapest first, so
    slowest first), over the empty cells of the configurations off the front."""
    xy_chart(book, sheet, "CostChart", "I4", "USD per million output tokens against TPOT",
             "TPOT at full load (ms per output token)", "USD per million output tokens",
             [(f"$Planner.$J${first}:$J${last}", f"$Planner.$M${first}:$M${last}", f"$Planner.$M${PLAN_TOP - 1}",
               ALL_COLOR, 8, 200, False),
              (f"$Planner.$J${first}:$J${last}", f"$Planner.$R${first}:$R${last}", f"$Planner.$Q${PLAN_TOP - 1}",
               FRONT_COLOR, 1, 260, True)],
             log_y=True, missing=2)


def add_curve_chart(book, sheet, first, last, mark):
    """XY line: output tokens/s per GPU (y) against tokens/s per user (x) over the curve's rows (its empty rows
    below are gaps), and the TPOT target as a vertical line (column `mark` and the next); beside the cost chart."""
    x, y, target_y, top = _col(CURVE_COL + 1), _col(CURVE_COL + 2), _col(CURVE_COL + CURVE_COLS + 2), PLAN_TOP
    xy_chart(book, sheet, "CurveChart", "N4", "Output tok/s per GPU against tok/s per user",
             "Output tokens/s per user (1000 / TPOT)", "Output tokens/s per GPU",
             [(f"$Planner.${x}${first}:${x}${last}", f"$Planner.${y}${first}:${y}${last}", f"$Planner.${y}${top - 1}",
               CURVE_COLOR, 0, 180, True),
              (f"$Planner.${mark}${top + 1}:${mark}${top + 2}", f"$Planner.${target_y}${top + 1}:${target_y}${top + 2}",
               f"$Planner.${mark}${top - 1}", POINT_COLOR, None, 0, True)],
             missing=0)


def _name_chart_shape(sheet, name):
    """The chart's name lives on its shape too, or the saved file forgets it ("Object 1" on reload)."""
    draw_page = sheet.DrawPage
    for i in range(draw_page.Count):
        shape = draw_page.getByIndex(i)
        if shape.supportsService("com.sun.star.drawing.OLE2Shape") and not shape.Name:
            shape.Name = name


def main(workdir, oxt, output):
    import uno  # noqa: PLC0415, F401 (its import hook makes com.sun.star importable)
    from com.sun.star.beans import PropertyValue  # noqa: PLC0415
    calc = Calc(workdir, oxt)
    output = Path(output).resolve()
    with calc.uno() as ctx:
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        hidden = PropertyValue(Name="Hidden", Value=True)
        doc = desktop.loadComponentFromURL("private:factory/scalc", "_blank", 0, (hidden,))
        try:
            errors = build(ctx, doc, output)
        except Exception:
            desktop.terminate()  # or the office outlives the harness, which only ends its launcher
            raise
    print(f"wrote {output}")
    if errors:
        print("error values in key tables:\n  " + "\n  ".join(errors))
        return 1
    return 0


def catalog_sizes(doc, sheet):
    """How many models and GPUs the add-in's catalog has: the heights of the ROOFLINE_MODELS() and
    ROOFLINE_GPUS() arrays, asked of Calc itself."""
    cell = sheet.getCellRangeByName("A1")
    sizes = []
    for formula in ("=ROWS(ROOFLINE_MODELS())", "=ROWS(ROOFLINE_GPUS())"):
        cell.setFormula(formula)
        doc.calculateAll()
        if cell.getError():
            raise RuntimeError(f"{formula} gives {cell.getString()}: is the add-in installed?")
        sizes.append(int(cell.getValue()))
    cell.setString("")
    return sizes


def build(ctx, doc, output):
    """Fills the sheets, stores the workbook; returns the error values found in key tables."""
    import uno  # noqa: PLC0415
    from com.sun.star.beans import PropertyValue  # noqa: PLC0415
    book = Book(ctx, doc)
    doc.enableAutomaticCalculation(False)  # one calculateAll() at the end, not one per cell written
    sheets = doc.Sheets
    first = sheets.getByIndex(0)
    first.Name = "Article"
    sheets.insertNewByName("Plan", 1)
    sheets.insertNewByName("Roofline", 2)
    sheets.insertNewByName("Planner", 3)
    sheets.insertNewByName("Models", 4)
    sheets.insertNewByName("Calibrate", 5)
    sheets.insertNewByName("Tails", 6)
    sheets.insertNewByName("Fleet", 7)
    while sheets.Count > 8:
        sheets.removeByName(sheets.ElementNames[8])

    article(book, sheets.getByName("Article"))
    plan(book, sheets.getByName("Plan"))
    roofline(book, sheets.getByName("Roofline"))
    catalog_sizes(doc, sheets.getByName("Models"))  # the add-in answers, or the build stops here
    models(book, sheets.getByName("Models"))  # first: the Planner's lists live there
    planner(book, sheets.getByName("Planner"))
    calibrate(book, sheets.getByName("Calibrate"))
    tails(book, sheets.getByName("Tails"))
    fleet(book, sheets.getByName("Fleet"))
    for cells in book.headers:
        cells.Rows.OptimalHeight = True

    # Printing: landscape A4, each sheet on one page.
    style = doc.StyleFamilies.getByName("PageStyles").getByName("Default")
    style.IsLandscape = True
    style.Width, style.Height = 29700, 21000
    style.ScaleToPagesX = 1
    style.ScaleToPagesY = 1
    style.CenterHorizontally = False
    # The Planner prints its inputs, answer, chart and the cheapest configurations with every column of the plan
    # and the two of its Pareto front beside it; the sheet lists them all.
    last_printed = _col(PLAN_COLS + 1)
    area = doc.Sheets.getByName("Planner").getCellRangeByName(f"A1:{last_printed}{PLAN_TOP + PLAN_PRINTED}").RangeAddress
    doc.Sheets.getByName("Planner").setPrintAreas((area,))
    # The Tails sheet prints its table and chart; the simulation's arrays below them stay on screen.
    tails_sheet = doc.Sheets.getByName("Tails")
    tails_sheet.setPrintAreas((tails_sheet.getCellRangeByName(f"A1:S{TAILS_TOP + len(TAILS_LOADS) + 1}").RangeAddress,))
    fleet_sheet = doc.Sheets.getByName("Fleet")
    fleet_sheet.setPrintAreas((fleet_sheet.getCellRangeByName(
        f"A1:{_col(FLEET_COLS - 1)}{FLEET_TOP + FLEET_ROWS + 2}").RangeAddress,))
    if doc.CurrentController:
        doc.CurrentController.setActiveSheet(sheets.getByName("Article"))

    doc.calculateAll()
    doc.enableAutomaticCalculation(True)
    for cells in book.fit_rows:  # rows whose wrapped results are known now
        cells.Rows.OptimalHeight = True
    errors = []
    for key in KEY_TABLES:
        cells = doc.NamedRanges.getByName(key).ReferredCells
        addr = cells.RangeAddress
        for r in range(addr.EndRow - addr.StartRow + 1):
            for c in range(addr.EndColumn - addr.StartColumn + 1):
                cell = cells.getCellByPosition(c, r)
                if cell.getError():
                    errors.append(f"{key} {cell.AbsoluteName}: {cell.getString()}")
    store = PropertyValue(Name="FilterName", Value=FLAT_ODS)
    output.parent.mkdir(parents=True, exist_ok=True)
    doc.storeToURL(uno.systemPathToFileUrl(str(output)), (store,))
    doc.close(True)
    return errors


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:4]))
