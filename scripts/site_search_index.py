#!/usr/bin/env python3
"""The full-text index of the site's pages, written after Doxygen has run.

Doxygen 1.9.4's own search (SEARCHENGINE) runs in the browser but indexes symbols
and page titles only; its full-text options (SERVER_BASED_SEARCH, EXTERNAL_SEARCH)
need a web server running PHP or doxysearch.cgi. So the docs target runs this
script on the built HTML: it reads every page made from Markdown (index.html and
md_*.html), splits each into its headed sections, and writes their text to
<site>/lab-search-index.js, which docs/site/lab-search.js searches. The index is
JSON, assigned to one variable, so that a page opened from disk (file://), where
a browser refuses to fetch a .json file, can load it with a <script> tag.

Usage: scripts/site_search_index.py build/release/docs/html
"""
import html.parser
import json
import pathlib
import re
import sys


class Sections(html.parser.HTMLParser):
    """The page title and, inside div.contents, each heading's anchor, title and text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.title, self.sections = [], [["", [], []]]
        self.depth = 0  # <div> depth inside div.contents; 0 outside it
        self.in_title = self.in_heading = False
        self.skip = 0  # inside <script> or <style>

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "div":
            if self.depth:
                self.depth += 1
            elif "contents" in classes:
                self.depth = 1
            self.in_title = self.in_title or "title" in classes
        if tag in ("script", "style"):
            self.skip += 1
        if self.depth and re.fullmatch(r"h[1-4]", tag):
            self.in_heading = True
            self.sections.append([attrs.get("id") or "", [], []])
        if self.in_heading and tag == "a" and attrs.get("id") and not self.sections[-1][0]:
            self.sections[-1][0] = attrs["id"]

    def handle_endtag(self, tag):
        if tag == "div":
            self.in_title = False
            if self.depth:
                self.depth -= 1
        if tag in ("script", "style") and self.skip:
            self.skip -= 1
        if re.fullmatch(r"h[1-4]", tag):
            self.in_heading = False

    def handle_data(self, data):
        if self.skip:
            return
        if self.in_title:
            self.title.append(data)
        elif self.depth:
            self.sections[-1][1 if self.in_heading else 2].append(data)


def squash(parts):
    return re.sub(r"\s+", " ", "".join(parts) if isinstance(parts, list) else parts).strip()


def index(site):
    pages = []
    for path in [site / "index.html"] + sorted(site.glob("md_*.html")):
        parser = Sections()
        parser.feed(path.read_text(encoding="utf-8", errors="replace"))
        sections = [{"a": anchor, "h": squash(heading), "t": squash(text)}
                    for anchor, heading, text in parser.sections if squash(text) or squash(heading)]
        pages.append({"p": path.name, "t": squash(parser.title) or path.stem, "s": sections})
    return pages


def main(argv):
    if len(argv) != 1 or not (pathlib.Path(argv[0]) / "index.html").exists():
        print(__doc__)
        return 2
    site = pathlib.Path(argv[0])
    pages = index(site)
    out = site / "lab-search-index.js"
    out.write_text("window.LAB_SEARCH_INDEX = " + json.dumps(pages, ensure_ascii=False, separators=(",", ":"))
                   + ";\n", encoding="utf-8")
    print(f"site_search_index: {len(pages)} pages, {sum(len(p['s']) for p in pages)} sections, "
          f"{out.stat().st_size // 1024} KiB: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
