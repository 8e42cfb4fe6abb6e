"""Writes tests/data/calc-workbook.ods: add-in formulas beside the same quantities worked out with
plain spreadsheet arithmetic, saved by a real Calc with the add-in installed. Committed; rerun only to
add rows.

usage: make_workbook.py WORKDIR OXT OUTPUT.ods
"""
import csv
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import CSV_IN, Calc  # noqa: E402

ROWS = [
    # label, add-in formula, the same by hand
    ("balance point of an H100 SXM", "=ROOFLINE_BALANCE(989; 3.35)", "=989/3.35"),
    ("decode step, 8B, batch 64, 4096 ctx", "=ROOFLINE_DECODE_MS(8; 64; 4096; 3.35)",
     "=MAX(2*8E9*64/989E12; (8E9*2+64*4096*128*1024)/3.35E12)*1000"),
    ("decode throughput, same", "=ROOFLINE_DECODE_TOKS(8; 64; 4096; 3.35)",
     "=64/(MAX(2*8E9*64/989E12; (8E9*2+64*4096*128*1024)/3.35E12))"),
    ("an optional argument left empty", "=ROOFLINE_DECODE_MS(8; 64; 4096; 3.35; ; 64)",
     "=(8E9*2+64*4096*64*1024)/3.35E12*1000"),
    ("prefill of 2000 tokens", "=ROOFLINE_PREFILL_MS(8; 2000; 989)", "=2*8E9*2000/989E12*1000"),
    ("weights, GB", "=ROOFLINE_WEIGHTS_GB(8)", "=8*2"),
    ("KV of 64 users, GB", "=ROOFLINE_KV_GB(64; 4096)", "=64*4096*128*1024/1E9"),
    ("critical batch without KV", "=ROOFLINE_CRITICAL_BATCH(8; 0; 989; 3.35)",
     "=INT((16E9/3.35E12)/(2*8E9/989E12))+1"),
    ("no critical batch with 4096 ctx", "=ISERROR(ROOFLINE_CRITICAL_BATCH(8; 4096; 989; 3.35))", "=1=1"),
    ("sequences that fit in 80 GB", "=ROOFLINE_MAX_BATCH(80; 8; 4096)", "=INT((80E9-16E9)/(4096*128*1024))"),
    ("what bounds the widget's step", "=ROOFLINE_BOUND(0; 14E9; 989; 2)", "memory"),
    ("second point of the roof", "=INDEX(ROOFLINE_ROOF(989; 3.35; 1; 1000; 4); 2; 2)", "=10*3.35"),
    ("attainable at intensity 64", "=ROOFLINE_ATTAINABLE_TFLOPS(64; 989; 3.35)", "=MIN(989; 64*3.35)"),
]


def main(workdir, oxt, output):
    calc = Calc(workdir, oxt)
    src = Path(workdir) / "calc-workbook.csv"
    with open(src, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["what", "add-in", "by hand", "agree"])
        for i, (label, formula, by_hand) in enumerate(ROWS, start=2):
            agree = f"=IF(ISNUMBER(C{i}); ABS(B{i}-C{i})<=1E-9*ABS(C{i}); B{i}=C{i})"
            w.writerow([label, formula, by_hand, agree])
    ods = calc.convert(src, "ods", Path(workdir) / "out", infilter=CSV_IN)
    shutil.copy(ods, output)
    print(f"wrote {output}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
