#!/usr/bin/env python3
"""Doxygen's input filter for the Markdown pages (cmake/Docs.cmake, FILTER_PATTERNS).

The pages are written for GitHub, where a relative link reaches any file of the
repository. Doxygen keeps only the pages it renders and writes them flat into
html/, so it passes every other relative link through to a file that is not
there. This filter, run on each page as Doxygen reads it, rewrites:
  - an image under docs/figures/ to its file name, which Doxygen finds on its
    IMAGE_PATH and copies next to the page;
  - a link to a repository file or folder that is not a rendered page (a lesson
    source, a run's results, an exercise folder) to the site's own copy of the
    repository, html/repo/<path> (the docs target copies those files there);
  - a link to a rendered page with a #heading, which Doxygen does not resolve, to
    that page's copy in html/repo/ (the anchor is GitHub's; the page is there).
A link to another rendered page without an anchor is left to Doxygen. It also
  - turns each `<!-- snippet: PATH REGION -->` comment (scripts/check_snippets.py),
    which GitHub hides, into a line above its code block that links the site's
    copy of the source, html/repo/PATH;
  - ends every page with the site's full-text search (docs/site/lab-search.js and
    the index scripts/site_search_index.py writes after Doxygen has run);
  - makes every figure a link to itself, so a reader (on a phone above all) can
    open it full size;
  - gives every chapter page (chapters/NN_name/README.md) a table of contents
    (Doxygen's [TOC], which the theme makes interactive) and a line to the previous
    chapter, all chapters and the next one, under its title and at its end.
Prints the page on stdout; never changes the file.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")
SNIPPET = re.compile(r"^<!--\s*snippet:\s*(\S+)\s+\S+\s*-->[ \t]*$", re.M)
SEARCH = ("\n\n\\htmlonly\n<script src=\"lab-search-index.js\"></script>\n"
          "<script src=\"lab-search.js\"></script>\n\\endhtmlonly\n")


def rewrite(page, text):
    folder = os.path.dirname(os.path.abspath(page))

    def one(match):
        bang, label, target = match.groups()
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            return match.group(0)
        path, _, anchor = target.partition("#")
        resolved = os.path.normpath(os.path.join(folder, path))
        if not resolved.startswith(ROOT) or not os.path.exists(resolved):
            return match.group(0)  # the link checker reports it
        relative = os.path.relpath(resolved, ROOT)
        if bang:
            if relative.startswith("docs/figures/"):
                name = os.path.basename(relative)
                return f"[![{label}]({name})]({name})"
            return match.group(0)
        if relative.endswith(".md") and not anchor and not relative.startswith("docs/results/"):
            return match.group(0)  # a rendered page (the kept runs' READMEs are not rendered)
        target = f"repo/{relative}{'/' if os.path.isdir(resolved) else ''}{'#' + anchor if anchor else ''}"
        if relative.endswith(".md"):  # Doxygen reads a Markdown link to a .md file as a page reference
            return f'<a href="{target}">{label}</a>'
        return f"[{label}]({target})"

    # Leave fenced code blocks alone.
    parts = re.split(r"(^```.*?^```)", text, flags=re.S | re.M)
    text = "".join(p if p.startswith("```") else SNIPPET.sub(source_link, LINK.sub(one, p)) for p in parts)
    return chapter_navigation(page, text) + SEARCH


def chapter_title(folder):
    """A chapter's title: its page's first heading, e.g. "Chapter 05: overlap"."""
    with open(os.path.join(ROOT, "chapters", folder, "README.md"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("# "):
                return line[2:].strip()
    return folder


def chapter_navigation(page, text):
    """A chapter page with [TOC] and previous / all / next lines under its title and at its end."""
    relative = os.path.relpath(os.path.abspath(page), ROOT).replace(os.sep, "/")
    match = re.fullmatch(r"chapters/(\d\d_[^/]+)/README\.md", relative)
    if not match:
        return text
    folders = sorted(f for f in os.listdir(os.path.join(ROOT, "chapters"))
                     if re.fullmatch(r"\d\d_.+", f) and os.path.exists(os.path.join(ROOT, "chapters", f, "README.md")))
    here = folders.index(match.group(1))
    links = []
    if here > 0:
        links.append(f"&larr; [{chapter_title(folders[here - 1])}](../{folders[here - 1]}/README.md)")
    links.append("[all chapters](../../README.md)")
    if here + 1 < len(folders):
        links.append(f"[{chapter_title(folders[here + 1])}](../{folders[here + 1]}/README.md) &rarr;")
    line = "\n\n" + " &nbsp;&middot;&nbsp; ".join(links) + "\n\n"
    title_end = text.find("\n", text.find("# ")) if text.startswith("# ") else -1
    if title_end < 0:
        return "[TOC]" + line + text + line
    return text[:title_end + 1] + line + "[TOC]\n" + text[title_end + 1:] + line


def source_link(match):
    path = match.group(1)
    return f'<div class="lab-snippet-source">from <a href="repo/{path}">{path}</a></div>'


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write(rewrite(sys.argv[1], f.read()))
