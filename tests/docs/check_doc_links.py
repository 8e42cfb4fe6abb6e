"""ctest "docs: every document is reachable from the README, every relative link and anchor resolves".

Reads README.md, docs/*.md and python/README.md: each relative Markdown link must name a file of the checkout,
and its #anchor a heading of that file (GitHub's anchors: lower case, punctuation dropped, spaces as '-');
each docs/*.md must be linked from the README, or from a document the README links.

Usage: check_doc_links.py SOURCE_DIR
"""
import os
import re
import sys
from pathlib import Path


def anchors(path):
    seen = {}
    out = set()
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code or not line.startswith("#"):
            continue
        title = line.lstrip("#").strip()
        slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def links(path):
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)  # code blocks hold no links
    return re.findall(r"\]\(([^)\s]+)\)", text)


def main():
    root = Path(sys.argv[1]).resolve()
    documents = [root / "README.md", root / "python" / "README.md", *sorted((root / "docs").glob("*.md"))]
    problems = []
    graph = {}
    for doc in documents:
        graph[doc] = set()
        for link in links(doc):
            if re.match(r"^[a-z]+:", link):
                continue  # https:, mailto:
            target, _, anchor = link.partition("#")
            file = (doc.parent / target).resolve() if target else doc
            if not file.exists():
                problems.append(f"{doc.relative_to(root)}: link to a missing file: {link}")
                continue
            graph[doc].add(file)
            if anchor and file.suffix == ".md" and anchor not in anchors(file):
                problems.append(f"{doc.relative_to(root)}: link to a missing heading: {link}")
    reached, todo = set(), [root / "README.md"]
    while todo:
        doc = todo.pop()
        if doc in reached:
            continue
        reached.add(doc)
        todo.extend(f for f in graph.get(doc, ()) if f in graph)
    for doc in documents:
        if doc not in reached:
            problems.append(f"{doc.relative_to(root)} is not reachable from README.md by links")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)
    print(f"{len(documents)} documents, every link resolves, every document reachable from README.md")


if __name__ == "__main__":
    main()
