#!/usr/bin/env python3
"""Broken links and rendering defects, in the Markdown as GitHub shows it and in
the site the docs target builds.

  scripts/check_links.py --markdown           every relative link and #anchor of the
                                               repository's Markdown, resolved as GitHub does
  scripts/check_links.py --site build/release/docs/html
                                               every internal href/src and #anchor of the built
                                               site, and the rendering checks: no raw <tt>,
                                               \\ilinebr, table-row markup or stray ` and ** in a
                                               page's text
  scripts/check_links.py --self-test           shows each check failing on made-up pages

External links (http:, https:, mailto:) are not fetched. Exit 0 when nothing is
broken, 1 otherwise; every problem is printed with its file.
"""
import html.parser
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parent.parent
MD_LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def github_slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|\*|_(?=\w)|(?<=\w)_", "", heading.strip()).lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors_of_markdown(path):
    anchors, seen = set(), {}
    in_fence = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_fence = not in_fence
        if in_fence:
            continue
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            slug = github_slug(m.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            anchors.add(slug if n == 0 else f"{slug}-{n}")
        for a in re.findall(r'<a (?:name|id)="([^"]+)"', line):
            anchors.add(a)
    return anchors


def markdown_links(path):
    in_fence = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        code_free = re.sub(r"`[^`]*`", "", line)
        for target in MD_LINK.findall(code_free):
            yield number, target


def check_markdown(root, files):
    problems = []
    for path in files:
        for number, target in markdown_links(path):
            if re.match(r"^[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            resolved = (path.parent / urllib.parse.unquote(file_part)).resolve() if file_part else path
            where = f"{path.relative_to(root)}:{number}"
            if not resolved.exists():
                problems.append(f"{where}: {target}: no such file")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors_of_markdown(resolved):
                problems.append(f"{where}: {target}: no heading with that anchor")
    return problems


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.ids, self.text = [], set(), []
        self.skip = 0  # inside <pre>, <code> or a code fragment

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("id", "name"):
            if attrs.get(key):
                self.ids.add(attrs[key])
        for key in ("href", "src"):
            if attrs.get(key):
                self.links.append(attrs[key])
        if tag in ("pre", "code", "script", "style") or "fragment" in (attrs.get("class") or ""):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in ("pre", "code", "script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.text.append(data)


RENDERING = [(re.compile(r"<tt>|</tt>"), "raw <tt> in the text"), (re.compile(r"\\ilinebr"), "\\ilinebr in the text"),
             (re.compile(r"<tr class="), "raw table-row markup in the text"),
             (re.compile(r"(^|\s)\*\*\S|\S\*\*(\s|$)"), "stray ** in the text"),
             (re.compile(r"`"), "a stray backtick in the text")]


def check_site(site):
    pages = {}
    for path in site.rglob("*.html"):
        if "repo" in path.relative_to(site).parts[:1]:
            continue
        page = Page()
        page.feed(path.read_text(encoding="utf-8", errors="replace"))
        pages[path.resolve()] = page
    problems = []
    for path, page in sorted(pages.items()):
        where = path.relative_to(site.resolve())
        for link in page.links:
            if re.match(r"^[a-z]+:", link) or link.startswith("//"):
                continue
            parsed = urllib.parse.urlsplit(link)
            target = (path.parent / urllib.parse.unquote(parsed.path)).resolve() if parsed.path else path
            if not target.exists():
                problems.append(f"{where}: {link}: no such file")
            elif parsed.fragment and target.suffix == ".html" and target in pages \
                    and parsed.fragment not in pages[target].ids:
                problems.append(f"{where}: {link}: no such anchor")
        if where.name.startswith(("md_", "index")):
            text = "".join(page.text)
            for pattern, what in RENDERING:
                m = pattern.search(text)
                if m:
                    problems.append(f"{where}: {what}: ...{text[max(0, m.start() - 40):m.end() + 40]!r}...")
    return problems


def tracked_markdown(root):
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"], cwd=root,
                         capture_output=True, text=True, check=True).stdout.split()
    return [root / f for f in out if (root / f).exists() and not f.startswith("docs/results/")]


def self_test():
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / "a.md").write_text("# Title\n\n## A `code` heading\n\n[ok](b.md) [ok](#a-code-heading) [bad](c.md)"
                                   " [bad](b.md#nowhere)\n```\n[not a link](x.md)\n```\n")
        (root / "b.md").write_text("# B\n")
        got = check_markdown(root, [root / "a.md"])
        for want in ("c.md: no such file", "b.md#nowhere: no heading"):
            if not any(want in p for p in got):
                print(f"self-test: markdown check missed '{want}': {got}")
                failures += 1
        if len(got) != 2:
            print(f"self-test: markdown check found {len(got)} problems, expected 2: {got}")
            failures += 1
        site = root / "html"
        site.mkdir()
        (site / "md_x.html").write_text('<p id="top">text &lt;tt&gt;x&lt;/tt&gt; <a href="y.html#top">y</a>'
                                        ' <a href="y.html#none">z</a> <img src="gone.svg"></p><pre>`ok`</pre>')
        (site / "y.html").write_text('<p id="top">fine</p>')
        got = check_site(site)
        for want in ("y.html#none: no such anchor", "gone.svg: no such file", "raw <tt>"):
            if not any(want in p for p in got):
                print(f"self-test: site check missed '{want}': {got}")
                failures += 1
    print(f"self-test: {'passed' if not failures else f'{failures} failed'}")
    return 1 if failures else 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    if argv == ["--markdown"]:
        problems = check_markdown(ROOT, tracked_markdown(ROOT))
        what = "Markdown links (as GitHub resolves them)"
    elif len(argv) == 2 and argv[0] == "--site":
        site = pathlib.Path(argv[1])
        if not (site / "index.html").exists():
            print(f"check_links: {site} has no index.html: build the docs target first")
            return 2
        problems = check_site(site)
        what = f"site {site}"
    else:
        print(__doc__)
        return 2
    for p in problems:
        print(p)
    print(f"check_links: {what}: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
