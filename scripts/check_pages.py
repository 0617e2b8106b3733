#!/usr/bin/env python3
"""Every chapter page reads like a book (docs/chapter-shape.md, "The page").

For every chapters/NN_name/README.md:
  - it opens with the three-part head: its first three `##` sections are
    "What you learn", "What the runs showed" and "Pitfalls";
  - a measured result comes within the first FIRST_RESULT_WORDS (300) words: the
    first line of "What the runs showed" that holds a number is reached by then;
    waived for a chapter in NOT_YET_RUN, whose first GPU run is still to come;
  - its main path holds at most MAIN_PATH_WORDS (5,000) words: the prose from the
    top of the page to the `## Run it yourself` section (the page's end matter: how
    to build and run, the options, the runs' provenance, and any "Going further"
    section, which come after it).

Words are the prose a reader reads: fenced blocks (code and program output), HTML
comments and image lines are not counted; table cells are. A page below the word
limit today is listed in DEBT with its count when the rule came (2026-12-02); it may
not grow past that until it is under the limit.

Usage: scripts/check_pages.py [ROOT]         exit 0 when every page holds, 1 otherwise
       scripts/check_pages.py --counts [ROOT] prints each page's counts too
       scripts/check_pages.py --self-test     shows each rule failing on a made-up page
"""
import pathlib
import re
import sys
import tempfile

FIRST_RESULT_WORDS = 300
MAIN_PATH_WORDS = 5000
HEAD = ["What you learn", "What the runs showed", "Pitfalls"]
END_MATTER = "Run it yourself"
# Pages over MAIN_PATH_WORDS, with their main-path count when the rule came: a
# ceiling each may not grow past. Remove a line when the page is under the limit.
DEBT = {}
# Chapters that have not run on a GPU yet: their "What the runs showed" says when the
# first run comes and has no number to quote, so only the first-result rule is waived
# for them. Remove a line once the page quotes its first run. Empty since chapter 13
# quoted its first run (2026-12-02); a new chapter waits here for its first.
NOT_YET_RUN = set()
WORD = re.compile(r"[A-Za-z0-9][\w'’.,:%×/+-]*")
HAS_NUMBER = re.compile(r"\d")


def prose_lines(text):
    """(line, is_prose) for each line: False inside fences, comments and for image lines."""
    fence = None
    comment = False
    for line in text.splitlines():
        stripped = line.strip()
        if fence:
            if stripped.startswith(fence):
                fence = None
            yield line, False
            continue
        if comment:
            comment = "-->" not in line
            yield line, False
            continue
        match = re.match(r"^(```+|~~~+)", stripped)
        if match:
            fence = match.group(1)
            yield line, False
            continue
        if stripped.startswith("<!--"):
            comment = "-->" not in stripped
            yield line, False
            continue
        yield line, not stripped.startswith("![")


def words_in(line):
    return len(WORD.findall(re.sub(r"\]\([^)]*\)", "]", line)))  # link targets are not read


def check_page(path):
    """(problems, counts) for one chapter page."""
    problems = []
    text = path.read_text(encoding="utf-8")
    sections = []  # the `##` headings, in order
    words = 0
    first_result = None
    main_path = None
    current = None
    for line, prose in prose_lines(text):
        if prose and line.startswith("## "):
            current = line[3:].strip()
            sections.append(current)
            if current == END_MATTER and main_path is None:
                main_path = words
        if not prose:
            continue
        if (first_result is None and current == HEAD[1] and not line.startswith("#")
                and HAS_NUMBER.search(line)):
            first_result = words + words_in(line)
        words += words_in(line)
    name = path.parent.name
    if sections[:3] != HEAD:
        problems.append(f"{path}: the page must open with the sections {HEAD} (it has {sections[:3]})")
    if first_result is None:
        if name not in NOT_YET_RUN:
            problems.append(f"{path}: no measured result (a line with a number) under '## {HEAD[1]}'")
    elif first_result > FIRST_RESULT_WORDS:
        problems.append(f"{path}: the first measured result comes after {first_result} words "
                        f"(at most {FIRST_RESULT_WORDS})")
    if main_path is None:
        problems.append(f"{path}: no '## {END_MATTER}' section ends the main path")
        main_path = words
    limit = max(MAIN_PATH_WORDS, DEBT.get(name, 0))
    if main_path > limit:
        why = f"its ceiling until it is under {MAIN_PATH_WORDS}" if name in DEBT else "the limit"
        problems.append(f"{path}: the main path holds {main_path} words ({why}: {limit})")
    return problems, {"first_result": first_result, "main_path": main_path, "page": words}


def check(root, show_counts=False):
    problems = []
    for page in sorted(pathlib.Path(root, "chapters").glob("[0-9][0-9]_*/README.md")):
        found, counts = check_page(page)
        problems += found
        if show_counts:
            print(f"{page.parent.name}: first result after {counts['first_result']} words, "
                  f"main path {counts['main_path']}, page {counts['page']} words")
    return problems


def self_test():
    good_head = "# Chapter 99\n\nIntro.\n\n## What you learn\n\nA.\n\n## What the runs showed\n\n" \
                "It took 3.2 ms.\n\n## Pitfalls\n\nB.\n\n"
    cases = {
        "a good page": (good_head + "## Run it yourself\n\nmake\n", 0),
        "a page without the head": ("# Chapter 99\n\n## Pitfalls\n\n3 ms\n\n## Run it yourself\n", 2),
        "a result after 300 words": (good_head.replace("Intro.", "word " * 320) + "## Run it yourself\n", 1),
        "a long main path": (good_head + ("word " * 5100) + "\n\n## Run it yourself\n", 1),
        "words in a fence are not counted": (good_head + "```\n" + "word " * 6000 + "\n```\n\n## Run it yourself\n", 0),
        "no end matter": (good_head, 1),
        "no result yet": (good_head.replace("It took 3.2 ms.", "Not run yet.") + "## Run it yourself\n", 1),
        "no result yet, not yet run": (good_head.replace("It took 3.2 ms.", "Not run yet.") + "## Run it yourself\n",
                                       0, True),
    }
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for what, (text, expected, *not_yet_run) in cases.items():
            page = pathlib.Path(tmp, "chapters", "99_test", "README.md")
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(text, encoding="utf-8")
            if not_yet_run:
                NOT_YET_RUN.add("99_test")
            found, _ = check_page(page)
            NOT_YET_RUN.discard("99_test")
            ok = len(found) == expected
            failed += not ok
            print(f"{'ok' if ok else 'FAILED'}: {what}: {len(found)} problem(s), expected {expected}")
            for problem in found:
                print("   ", problem)
    return 1 if failed else 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    show = "--counts" in argv
    args = [a for a in argv if not a.startswith("--")]
    root = args[0] if args else pathlib.Path(__file__).resolve().parent.parent
    problems = check(root, show)
    for problem in problems:
        print(problem)
    print(f"chapter pages: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
