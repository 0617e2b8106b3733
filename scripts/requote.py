#!/usr/bin/env python3
"""Re-quote the program output pasted on the pages from a newer kept run of the same code.

    python3 scripts/requote.py docs/results/OLD docs/results/NEW [page.md ...]          # report only
    python3 scripts/requote.py docs/results/OLD docs/results/NEW --write [page.md ...]  # and rewrite
    python3 scripts/requote.py --self-test

A fenced block on a page quotes the OLD run when each of its lines (but the cut marks "..."
and blank lines) is a whole line of one text file of OLD (tour.log, a timeline, a torch/ or
numba/ log), in that file's order. Its NEW counterpart is the file at the same path in NEW.
The two files are aligned line by line on their shape (each number replaced by '#', runs of
spaces by one), so a line maps to the NEW line printed by the same code at the same place;
the block is rewritten with those NEW lines, cut marks kept. A block with a line that has no
counterpart of the same shape (a table that grew a row, a line that is not printed any more)
is left as it is and listed: a person re-quotes it. Nothing but whole quoted blocks changes:
the prose's numbers, the links and the provenance lines are the person's (the report lists
the numbers each rewritten block changed, as a start).

Default pages: every chapter page, docs/*.md and README.md. Exit 0; 1 when a block that
quotes OLD could not be re-quoted; 2 on a bad command line.
"""
import difflib
import pathlib
import re
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
CUT = {"...", "…", "[...]"}
NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def shape(line):
    """The line with every number '#' and every run of spaces one space: what the code printed
    there, whatever it measured (a table's column widths follow its values)."""
    return re.sub(r"\s+", " ", NUMBER.sub("#", line)).strip()


def text_files(run):
    """{relative path: lines} of the run's text files (JSON, SVG and HTML left out)."""
    files = {}
    for path in sorted(pathlib.Path(run).rglob("*")):
        if path.is_file() and path.suffix in {".log", ".txt", ".out", ".tsv", ".csv"}:
            try:
                files[path.relative_to(run).as_posix()] = path.read_text().splitlines()
            except UnicodeDecodeError:
                continue
    return files


def fenced_blocks(lines):
    """(first, last) line indices of each fenced block's body (fences excluded)."""
    out, start = [], None
    for i, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            if start is None:
                start = i + 1
            else:
                out.append((start, i))
                start = None
    return out


def locate(body, files):
    """The OLD file that holds every quoted line of @body in order, and each line's index there
    (None for a cut mark or a blank line); (None, None) if no file does. tour.log first."""
    quoted = [line for line in body if line.strip() and line.strip() not in CUT]
    if not quoted:
        return None, None
    for name in sorted(files, key=lambda n: (n != "tour.log", n)):
        lines, at, where = files[name], -1, []
        for line in body:
            if not line.strip() or line.strip() in CUT:
                where.append(None)
                continue
            try:
                at = lines.index(line, at + 1)
            except ValueError:
                break
            where.append(at)
        else:
            return name, where
    return None, None


def alignment(old_lines, new_lines):
    """{old index: new index} for the lines of the same shape that difflib pairs in order."""
    matcher = difflib.SequenceMatcher(None, [shape(x) for x in old_lines], [shape(x) for x in new_lines],
                                      autojunk=False)
    pairs = {}
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            pairs[block.a + k] = block.b + k
    return pairs


def requote_page(page, text, old_files, new_files, alignments):
    """Rewrites the blocks of @page (its @text) that quote OLD; returns (new text, [report lines],
    blocks left)."""
    lines = text.splitlines()
    report, left = [], 0
    for first, last in fenced_blocks(lines):
        body = lines[first:last]
        name, where = locate(body, old_files)
        if name is None:
            continue
        if name not in new_files:
            report.append(f"  {page}:{first + 1}: quotes {name}, which the new run does not have: left")
            left += 1
            continue
        if name not in alignments:
            alignments[name] = alignment(old_files[name], new_files[name])
        pairs = alignments[name]
        missing = [first + 1 + k for k, at in enumerate(where) if at is not None and at not in pairs]
        if missing:
            report.append(f"  {page}:{first + 1}: quotes {name}; line(s) {missing} have no counterpart of the "
                          "same shape in the new run: left")
            left += 1
            continue
        new_body = [line if at is None else new_files[name][pairs[at]] for line, at in zip(body, where)]
        changed = sum(a != b for a, b in zip(body, new_body))
        old_numbers = {m.group(0) for line in body for m in NUMBER.finditer(line)}
        new_numbers = {m.group(0) for line in new_body for m in NUMBER.finditer(line)}
        gone = sorted(old_numbers - new_numbers, key=lambda s: (len(s), s))
        report.append(f"  {page}:{first + 1}: quotes {name}: {changed} of {len(body)} line(s) re-quoted"
                      + (f"; numbers no longer in it (check the prose): {' '.join(gone[:20])}"
                         + (" ..." if len(gone) > 20 else "") if gone else ""))
        lines[first:last] = new_body
    new_text = "\n".join(lines) + ("\n" if text.endswith("\n") else "")
    return new_text, report, left


def default_pages():
    pages = sorted(ROOT.glob("chapters/*/README.md")) + sorted(ROOT.glob("docs/*.md")) + [ROOT / "README.md"]
    return [p for p in pages if p.is_file()]


def run(old, new, pages, write):
    old_files, new_files, alignments = text_files(old), text_files(new), {}
    left_total, rewritten = 0, 0
    for page in pages:
        text = page.read_text()
        new_text, report, left = requote_page(page, text, old_files, new_files, alignments)
        left_total += left
        for line in report:
            print(line)
        if write and new_text != text:
            page.write_text(new_text)
            rewritten += 1
    print(f"requote: {left_total} block(s) left to re-quote by hand" + (f"; {rewritten} page(s) rewritten" if write else ""))
    return 1 if left_total else 0


def self_test():
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        (root / "old").mkdir()
        (root / "new").mkdir()
        (root / "old" / "tour.log").write_text(
            "Chapter 1\nhow      median [ms]\nfast           1.50\nslow          12.25\n[PASS] fast is 8.17x faster\n"
            "rows: 2\nrow a 1\nrow b 2\n")
        (root / "new" / "tour.log").write_text(
            "Chapter 1\nhow      median [ms]\nfast          11.75\nslow         120.00\n[PASS] fast is 10.21x faster\n"
            "rows: 3\nrow a 1\nrow b 2\nrow c 3\n")
        page = root / "page.md"
        page.write_text("Text 8.17x.\n\n```text\nhow      median [ms]\nfast           1.50\n...\n"
                        "[PASS] fast is 8.17x faster\n```\n\n```text\nrows: 2\nrow a 1\nextra line\n```\n"
                        "\n```sh\ncmake --build build\n```\n")
        text, report, left = requote_page(page, page.read_text(), text_files(root / "old"), text_files(root / "new"), {})
        expect = ("Text 8.17x.\n\n```text\nhow      median [ms]\nfast          11.75\n...\n"
                  "[PASS] fast is 10.21x faster\n```\n\n```text\nrows: 2\nrow a 1\nextra line\n```\n"
                  "\n```sh\ncmake --build build\n```\n")
        problems = []
        if text != expect:
            problems.append(f"rewritten page:\n{text}")
        if left != 0 or len(report) != 1 or "2 of 4 line(s) re-quoted" not in report[0] or "8.17" not in report[0]:
            problems.append(f"report: {report}, left {left}")
        # a quoted line whose counterpart changed shape is never guessed
        page.write_text("```\nrows: 2\nrow a 1\nrow b 2\n```\n")
        (root / "new" / "tour.log").write_text("Chapter 1\nrows: 3 of 4\nrow a 1\nrow b 2\n")
        text, report, left = requote_page(page, page.read_text(), text_files(root / "old"), text_files(root / "new"), {})
        if left != 1 or text != page.read_text() or "no counterpart" not in report[0]:
            problems.append(f"changed shape: {report}, left {left}")
        # shapes: numbers and spacing, not words
        if shape("fast   1.50  x") != shape("fast 120.00 x") or shape("a 1") == shape("b 1"):
            problems.append("shape()")
    print("requote self-test:", "ok" if not problems else "FAILED\n" + "\n".join(problems))
    return 1 if problems else 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    write = "--write" in argv
    args = [a for a in argv if a != "--write"]
    if len(args) < 2 or any(a.startswith("--") for a in args):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        print("requote: give the old and the new run folders, then pages (default: all)", file=sys.stderr)
        return 2
    old, new = pathlib.Path(args[0]), pathlib.Path(args[1])
    if not old.is_dir() or not new.is_dir():
        print(f"requote: {old if not old.is_dir() else new} is not a folder", file=sys.stderr)
        return 2
    pages = [pathlib.Path(p) for p in args[2:]] or default_pages()
    return run(old, new, pages, write)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
