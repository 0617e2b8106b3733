#!/usr/bin/env python3
"""The site's source pages, and its links to them (run after Doxygen, cmake/Docs.cmake).

The pages link lesson sources the way GitHub shows them (`vector_add.cu`,
`vector_add.cu#L42`); scripts/doxygen_md_filter.py points those links at the site's
copy of the repository, html/repo/. A raw copy opens as plain text at line 1, so this
script, run on the finished site:
  - writes a highlighted page for every source file a page links (.cu, .cuh, .cpp,
    .hpp, .py, .cmake, .sh, CMakeLists.txt...): html/src/<path>.html, every line with
    an anchor (#L42) so a link to a snippet opens at its first line. Highlighted by
    Pygments (pinned in python/requirements-tools.txt, CUDA read as C++) where it can be
    imported; else the same page unhighlighted;
  - points every such link (href="repo/<path>" or "repo/<path>#L<n>") at that page;
  - does the same for a Markdown file the site does not render (a kept run's README),
    so it opens as a page of the site, not as raw Markdown;
  - numbers the figures of each page ("Figure 1: " before each caption) and gives each
    its caption as alt text (the SVG <object> gets role="img" and an aria-label);
  - points a link to a section of another page (href="repo/<page>.md#<github-anchor>",
    which Doxygen cannot resolve) at the rendered page and the heading's own anchor,
    so no link opens raw Markdown.

Usage: scripts/site_sources.py HTML_DIR     prints what it wrote; exit 1 if HTML_DIR has no pages
"""
import html
import pathlib
import re
import sys

SOURCE_SUFFIXES = {".cu", ".cuh", ".cpp", ".hpp", ".h", ".py", ".cmake", ".sh", ".txt"}
SOURCE_NAMES = {"CMakeLists.txt", "CMakePresets.json", "progress", "make-student-copy", "grade-selftest",
                "handed-out", "format-check", "tools", "run"}
HREF = re.compile(r'href="repo/([^"#]+)(#[^"]*)?"')
FIGURE = re.compile(r'(<div class="image">\s*<object )([^>]*>)(</object>\s*<div class="caption">\s*)(.*?)(</div>)', re.S)
HEADING = re.compile(r'<h([1-6])[^>]*>\s*<a class="anchor" id="([^"]+)"></a>\s*(.*?)</h\1>', re.S)
STYLE = """body{font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:0;background:#fff;color:#1f2328}
header{font-family:system-ui,sans-serif;padding:.6em 1em;border-bottom:1px solid #d0d7de;position:sticky;top:0;background:#f6f8fa}
header a{color:#0969da}.src{display:table;padding:.5em 0}.lab-ln{display:table-row;scroll-margin-top:4em}.lab-ln:target{background:#fff8c5}
.lab-n{display:table-cell;text-align:right;padding:0 1em;color:#6e7781;user-select:none;text-decoration:none}
.lab-code{display:table-cell;white-space:pre-wrap;overflow-wrap:anywhere;padding-right:1em}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}header{background:#161b22;border-color:#30363d}
header a{color:#58a6ff}.lab-ln:target{background:#3b2e00}}"""


def is_source(path):
    p = pathlib.PurePosixPath(path)
    return p.suffix in SOURCE_SUFFIXES or p.name in SOURCE_NAMES


def highlighted_lines(path, text):
    """The file's lines as HTML, highlighted where Pygments is there; and its CSS."""
    try:
        from pygments import highlight
        from pygments.formatters import HtmlFormatter
        from pygments.lexers import CppLexer, get_lexer_for_filename, TextLexer
        from pygments.util import ClassNotFound
    except ImportError:
        return [html.escape(line) for line in text.split("\n")], ""
    name = pathlib.PurePosixPath(path).name
    if name.endswith((".cu", ".cuh")):
        lexer = CppLexer(stripnl=False)  # keep leading blank lines: each row is the file's line
    else:
        try:
            lexer = get_lexer_for_filename(name if name != "CMakeLists.txt" else "x.cmake", text, stripnl=False)
        except ClassNotFound:
            lexer = TextLexer(stripnl=False)
    formatter = HtmlFormatter(nowrap=True, style="friendly")
    body = highlight(text, lexer, formatter)
    # Pygments closes and reopens its spans at each line end, so the lines split cleanly.
    return body.rstrip("\n").split("\n"), formatter.get_style_defs(".lab-code")


def source_page(path, text, depth):
    lines, css = highlighted_lines(path, text)
    up = "../" * depth
    rows = "".join(f'<div class="lab-ln" id="L{i}"><a class="lab-n" href="#L{i}">{i}</a><span class="lab-code">{line or " "}</span></div>'
                   for i, line in enumerate(lines, 1))
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{html.escape(path)} - CUDA Async Lab</title><style>{STYLE}{css}</style></head><body>'
            f'<header><a href="{up}index.html">CUDA Async Lab</a> / <strong>{html.escape(path)}</strong> '
            f'(<a href="{up}repo/{html.escape(path)}">plain text</a>)</header>'
            f'<main class="src">{rows}</main></body></html>')


def github_slug(text):
    """GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces to '-'."""
    text = re.sub(r"<[^>]+>", "", html.unescape(text)).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def rendered_page(html_dir, md_path):
    """The HTML file Doxygen wrote for a Markdown page of the repository, or None."""
    if md_path == "README.md":
        return "index.html"
    name = "md_" + re.sub(r"[/.]", "_", md_path[:-3]) + ".html"
    return name if (html_dir / name).exists() else None


def number_figures(text):
    """Each figure of a page numbered in its caption, its caption its alt text."""
    count = 0

    def one(match):
        nonlocal count
        count += 1
        caption = match.group(4).strip()
        label = html.escape(re.sub(r"<[^>]+>", "", html.unescape(caption)), quote=True)
        return (f'{match.group(1)}role="img" aria-label="Figure {count}: {label}" {match.group(2)}{match.group(3)}'
                f'<span class="lab-figure-number">Figure {count}:</span> {caption}{match.group(5)}')

    return FIGURE.sub(one, text)


def main(argv):
    if len(argv) != 1:
        print(__doc__)
        return 2
    html_dir = pathlib.Path(argv[0])
    pages = sorted(html_dir.glob("*.html"))
    if not pages:
        print(f"site_sources: no pages in {html_dir}")
        return 1
    anchors = {}  # rendered page -> {github slug: doxygen id}

    def anchor_in(page, slug):
        if page not in anchors:
            text = (html_dir / page).read_text(encoding="utf-8")
            anchors[page] = {}
            for m in HEADING.finditer(text):  # the first of repeated headings, as GitHub's #slug
                anchors[page].setdefault(github_slug(m.group(3)), m.group(2))
        return anchors[page].get(slug)

    written = set()
    section_links = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")

        def rewrite(match):
            nonlocal section_links
            path, fragment = match.group(1), match.group(2) or ""
            if path.endswith(".md") and fragment and rendered_page(html_dir, path):
                target = rendered_page(html_dir, path)
                anchor = target and anchor_in(target, fragment[1:])
                if anchor:
                    section_links += 1
                    return f'href="{target}#{anchor}"'
                return match.group(0)
            source = html_dir / "repo" / path
            unrendered = path.endswith(".md") and not rendered_page(html_dir, path)  # a kept run's README
            if not (is_source(path) or unrendered) or not source.is_file():
                return match.group(0)
            if path not in written:
                out = html_dir / "src" / (path + ".html")
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_text(source_page(path, source.read_text(encoding="utf-8", errors="replace"),
                                           path.count("/") + 1), encoding="utf-8")
                written.add(path)
            return f'href="src/{path}.html{fragment}"'

        new = HREF.sub(rewrite, text)
        if page.name.startswith(("md_", "index")) and "lab-figure-number" not in new:
            new = number_figures(new)
        if new != text:
            page.write_text(new, encoding="utf-8")
    try:
        import pygments
        how = f"highlighted by Pygments {pygments.__version__}"
    except ImportError:
        how = "not highlighted (Pygments is not installed: scripts/tools has it)"
    print(f"site_sources: {len(written)} source pages in {html_dir / 'src'}, {how}; "
          f"{section_links} links to a section of another page now open the rendered page")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
