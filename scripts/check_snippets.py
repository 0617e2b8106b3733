#!/usr/bin/env python3
"""The code on the pages is the code in the sources: one source of truth.

A page shows lesson code as a fenced block right after an HTML comment that names
a source file (from the repository root) and a region of it:

    <!-- snippet: chapters/01_kernel_launch/add_kernels.cu add_grid_stride -->
    ```cpp
    ...
    ```

The region is marked in the source by two identical comment lines, one each side:

    // [snippet:add_grid_stride]
    ...
    // [snippet:add_grid_stride]

The block must equal the lines between the markers, their common indentation
removed. GitHub hides the comment; on the site, scripts/doxygen_md_filter.py turns
it into a link to the site's copy of the source.

  scripts/check_snippets.py             check every snippet block of the repository's Markdown
  scripts/check_snippets.py --write     rewrite each drifted block from its source region
  scripts/check_snippets.py --self-test shows the check failing on a drifted block

Exit 0 when every block matches, 1 otherwise; every problem is printed with its file and line.
"""
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SNIPPET = re.compile(r"^<!--\s*snippet:\s*(\S+)\s+(\S+)\s*-->\s*$")
FENCE = re.compile(r"^(```+)")


def region(source, name):
    """The lines between the two `[snippet:name]` marker lines, dedented; or an error."""
    if not source.exists():
        return None, "no such source file"
    lines = source.read_text(encoding="utf-8").splitlines()
    marker = re.compile(r"^\s*(//|#)!?\s*\[(snippet:)?" + re.escape(name) + r"\]\s*$")
    at = [i for i, line in enumerate(lines) if marker.match(line)]
    if len(at) != 2:
        return None, f"region '{name}' needs exactly two marker lines, found {len(at)}"
    body = [line.rstrip() for line in lines[at[0] + 1:at[1]]]
    indent = min((len(line) - len(line.lstrip()) for line in body if line), default=0)
    return [line[indent:] for line in body], None


def blocks(page):
    """Each snippet block of a page: (comment line index, fence open index, fence close index, path, name)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        m = SNIPPET.match(lines[i])
        if m:
            fence = FENCE.match(lines[i + 1]) if i + 1 < len(lines) else None
            close = None
            if fence:
                close = next((j for j in range(i + 2, len(lines)) if lines[j].rstrip() == fence.group(1)), None)
            found.append((i, i + 1 if fence else None, close, m.group(1), m.group(2)))
            i = (close or i) + 1
            continue
        i += 1
    return lines, found


def check(root, pages, write=False):
    problems, count = [], 0
    for page in pages:
        lines, found = blocks(page)
        changed = False
        for comment, open_at, close_at, path, name in reversed(found):
            count += 1
            where = f"{page.relative_to(root)}:{comment + 1}: {path} {name}"
            if open_at is None or close_at is None:
                problems.append(f"{where}: the comment must be followed by a fenced code block")
                continue
            want, error = region(root / path, name)
            if error:
                problems.append(f"{where}: {error}")
                continue
            if lines[open_at + 1:close_at] != want:
                if write:
                    lines[open_at + 1:close_at] = want
                    changed = True
                    print(f"check_snippets: rewrote {where}")
                else:
                    problems.append(f"{where}: the block differs from the source region "
                                    f"(scripts/check_snippets.py --write refreshes it)")
        if changed:
            page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return problems, count


def tracked_markdown(root):
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"], cwd=root,
                             capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: every page outside build/
        out = [str(f.relative_to(root)) for f in root.rglob("*.md") if "build" not in f.relative_to(root).parts]
    return [root / f for f in out if (root / f).exists() and not f.startswith("docs/results/")]


def self_test():
    failures = 0

    def expect(what, got, wanted):
        nonlocal failures
        if not (any(wanted in p for p in got) if wanted else not got):
            print(f"self-test: {what}: expected {wanted or 'no problem'!r}, got {got}")
            failures += 1

    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / "k.cu").write_text("void f() {\n  // [snippet:body]\n  int x = 1;\n\n  g(x);\n  // [snippet:body]\n}\n"
                                   "// [snippet:odd]\n")
        page = root / "p.md"
        good = "# P\n\n<!-- snippet: k.cu body -->\n```cpp\nint x = 1;\n\ng(x);\n```\n\ntext\n"
        page.write_text(good)
        expect("a matching block", check(root, [page])[0], None)
        page.write_text(good.replace("g(x);", "g(x + 1);"))
        expect("a drifted block", check(root, [page])[0], "differs from the source region")
        check(root, [page], write=True)
        expect("--write refreshes a drifted block", [page.read_text()] if page.read_text() != good else [], None)
        page.write_text("<!-- snippet: k.cu nowhere -->\n```cpp\n```\n<!-- snippet: k.cu odd -->\n```cpp\n```\n"
                        "<!-- snippet: gone.cu body -->\n```cpp\n```\n<!-- snippet: k.cu body -->\nno block\n")
        got = check(root, [page])[0]
        for wanted in ("found 0", "found 1", "no such source file", "must be followed by a fenced code block"):
            expect("a broken reference", got, wanted)
    print(f"self-test: {'passed' if not failures else f'{failures} failed'}")
    return 1 if failures else 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    if argv not in ([], ["--write"]):
        print(__doc__)
        return 2
    problems, count = check(ROOT, tracked_markdown(ROOT), write=argv == ["--write"])
    for p in problems:
        print(p)
    print(f"check_snippets: {count} snippet block(s): {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
