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
    that page's copy in html/repo/ (scripts/site_sources.py, run after Doxygen, points
    it at the rendered page and the heading's own anchor, and every link to a source
    file at its highlighted page, html/src/<path>.html).
A link to another rendered page without an anchor is left to Doxygen. It also
  - turns each `<!-- snippet: PATH REGION -->` comment (scripts/check_snippets.py),
    which GitHub hides, into a line above its code block that links the site's
    copy of the source at the snippet's first line, html/repo/PATH#L<n>;
  - ends every page with the site's full-text search (docs/site/lab-search.js and
    the index scripts/site_search_index.py writes after Doxygen has run);
  - makes every figure a link to itself, so a reader (on a phone above all) can
    open it full size;
  - gives every chapter page (chapters/NN_name/README.md) a table of contents
    (Doxygen's [TOC], which the theme makes interactive) and a line to the previous
    chapter, all chapters and the next one, under its title and at its end.
And it works around three quirks of Doxygen's Markdown (1.9) that leave markup
shown literally where GitHub renders it (inline_markup):
  - a double quote starts a "quoted section", copied as it stands up to the next
    double quote on the same or the next line: a code span or bold inside it, or
    between a quote and the next one when the real closing quote is two lines
    further on, is not rendered. Every double quote in the text (not in code, an
    HTML tag or a link's target) becomes &quot;, which Doxygen does not pair;
  - bold that holds a code span fails when the bold starts with the span
    (`**`x` y**`: a backtick is not allowed after the opening `**`) or the span
    follows a bracket (`**a (`x`)**`: the backtick after "(" is skipped, and the
    span's closing backtick then opens one that swallows the closing `**`). Such
    bold becomes <b>...</b>, in which Doxygen renders the span;
  - a single-backtick code span with a quote ' not followed by a letter or digit
    is read as 'quoted' text (`jq '.a' f.json` shows its backticks): such a span
    gets two backticks, which GitHub renders the same.
Prints the page on stdout; never changes the file.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")
SNIPPET = re.compile(r"^<!--\s*snippet:\s*(\S+)\s+(\S+)\s*-->[ \t]*$", re.M)


def code_span(name):
    """A Markdown code span (one or more backticks, no blank line inside); NAME is its ticks' group."""
    return rf"(?<!`)(?P<{name}>`+)(?!`)(?:(?!\n[ \t]*\n).)+?(?<!`)(?P={name})(?!`)"


CODE_SPAN = re.compile(code_span("ticks"), re.S)
BOLD = re.compile(rf"(?P<code>{code_span('t1')})|\*\*(?=\S)(?P<inner>(?:{code_span('t2')}|[^*`\n]|\n(?![ \t]*\n))+?)"
                  r"(?<=\S)\*\*", re.S)
QUOTE = re.compile(rf"(?P<keep>{code_span('t')}|<!--.*?-->|</?[A-Za-z][^<>]*>|\]\([^)\s]*\))|\"", re.S)
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
    prefix = label_prefix(page)
    slugs = {}
    parts = [p if p.startswith("```") else heading_labels(p, prefix, slugs) for p in parts]
    text = "".join(p if p.startswith("```") else SNIPPET.sub(source_link, LINK.sub(one, inline_markup(p)))
                   for p in parts)
    return chapter_navigation(page, text) + SEARCH


def inline_markup(text):
    """Doxygen's quirks with quotes, bold and code spans (see above) worked around."""
    def code(span):
        ticks = span.group("ticks")
        body = span.group(0)[len(ticks):-len(ticks)]
        if len(ticks) == 1 and re.search(r"'(?![A-Za-z0-9\x80-\U0010ffff])", body):
            return f"``{body}``"  # the span neither starts nor ends with a backtick
        return span.group(0)

    def bold(match):
        if match.group("code"):
            return match.group(0)
        inner = match.group("inner")
        return f"<b>{inner}</b>" if "`" in inner else match.group(0)

    def quote(match):
        return match.group("keep") or "&quot;"

    text = CODE_SPAN.sub(code, text)
    text = BOLD.sub(bold, text)
    return QUOTE.sub(quote, text)


def label_prefix(page):
    """A short name for the page, unique on the site, that starts its headings' labels."""
    relative = os.path.relpath(os.path.abspath(page), ROOT).replace(os.sep, "/")
    match = re.fullmatch(r"chapters/(\d\d)_[^/]+/README\.md", relative)
    if match:
        return "ch" + match.group(1)
    return re.sub(r"[^a-z0-9]+", "-", relative[:-3].lower()).strip("-")


def github_slug(heading):
    """GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"\]\([^)]*\)", "]", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def heading_labels(text, prefix, slugs):
    """Every heading below the title gets a Doxygen label, PREFIX-<GitHub's anchor>, and
    every link to a section of the same page (#anchor, as GitHub resolves it) points at
    that label: Doxygen knows no GitHub anchors, and its labels are site-wide."""
    def label(match):
        hashes, title = match.group(1), match.group(2).rstrip()
        if len(hashes) == 1 or title.endswith("}"):
            return match.group(0)
        slug = github_slug(title)
        count = slugs.get(slug, 0)
        slugs[slug] = count + 1
        unique = slug if count == 0 else f"{slug}-{count}"  # GitHub numbers repeated headings
        return f"{hashes} {title} {{#{prefix}-{unique}}}"

    text = re.sub(r"^(#{1,6}) (.+)$", label, text, flags=re.M)
    return re.sub(r"\]\(#([\w-]+)\)", lambda m: f"](#{prefix}-{m.group(1)})", text)


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


def snippet_line(path, region):
    """The line (from 1) where a snippet region's code starts in its source, or None."""
    try:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if line.strip() == f"// [snippet:{region}]":
                    return number + 1
    except OSError:
        pass
    return None


def source_link(match):
    """The line above a snippet's code block: its source, opened at the snippet's first
    line (scripts/site_sources.py turns repo/PATH#Ln into the highlighted source page)."""
    path, line = match.group(1), snippet_line(match.group(1), match.group(2))
    anchor = f"#L{line}" if line else ""
    return f'<div class="lab-snippet-source">from <a href="repo/{path}{anchor}">{path}</a></div>'


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write(rewrite(sys.argv[1], f.read()))
