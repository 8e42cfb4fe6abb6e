"""Checks the validation figure of build/bench/roofline-planner-accuracy --svg (docs/images/planner-validation.svg).

Usage: check_planner_svg.py serving-validation.csv FIGURE.svg [FIGURE.svg ...]

The SVG must be well-formed XML with an <svg> root, and hold one `typical` marker and one `bound` marker per
row of the CSV, each naming its row (data-id), every id once. The `bound` marker of a row must not sit below
the y = x line (bound never predicts less than the published throughput: the same check as test_serving,
seen on the figure). Given the figure just drawn and the committed docs/images/planner-validation.svg, this
also catches a committed figure that misses rows added to the CSV (regenerate it with the command in
docs/serving-model.md section 11); small moves of the markers after a change to the model are not checked.
"""
import csv
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def check(figure, table):
    root = ET.parse(figure).getroot()  # raises on malformed XML
    if root.tag != SVG + "svg":
        sys.exit(f"{figure}: root element is {root.tag}, not svg")
    with open(table, newline="", encoding="utf-8") as f:
        ids = [row["id"] for row in csv.DictReader(f)]
    if len(set(ids)) != len(ids):
        sys.exit(f"{table}: duplicate ids")
    marks = {"typical": [], "bound": []}
    for el in root.iter():
        classes = el.get("class", "").split()
        if "point" in classes:
            for kind in marks:
                if kind in classes:
                    marks[kind].append(el)
    for kind, els in marks.items():
        got = sorted(el.get("data-id") for el in els)
        if got != sorted(ids):
            missing = sorted(set(ids) - set(got))
            extra = sorted(set(got) - set(ids))
            sys.exit(f"{figure}: {kind} markers {len(got)} for {len(ids)} rows; missing {missing}, extra {extra}")
    # y grows downwards: a bound marker below y = x has cy greater than the y = x line at its cx. The dashed
    # line runs from the bottom left to the top right corner of the plot, so y(x) is linear between them.
    line = next(el for el in root.iter(SVG + "line") if el.get("stroke-dasharray"))
    x1, y1, x2, y2 = (float(line.get(a)) for a in ("x1", "y1", "x2", "y2"))
    for el in marks["bound"]:
        cx, cy = float(el.get("cx")), float(el.get("cy"))
        on_line = y1 + (cx - x1) * (y2 - y1) / (x2 - x1)
        if cy > on_line + 0.5:
            sys.exit(f"{figure}: bound marker of {el.get('data-id')} lies below y = x")
    print(f"{figure}: {len(ids)} rows, one typical and one bound marker each")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    for fig in sys.argv[2:]:
        check(fig, sys.argv[1])
