#!/usr/bin/env python3
"""The built site in a real browser: headless Chromium, driven by
Selenium (both pinned: Debian's chromium and chromium-driver, and
python/requirements-tools.txt), opens the front page, every chapter page and one
source page at desktop width (1280 px) and phone width (390 px), and fails on
  - an image that did not load, or a figure (an SVG <object>) that takes no room,
  - an error in the browser's console,
  - a page wider than its window (the reader would scroll sideways to read it),
  - a page made from Markdown without the full-text search box, or a search for a
    word found only in chapters' body text (SEARCH_WORD) that does not list every
    chapter whose page holds it (docs/site/lab-search.js), or whose first result opens
    without the word marked, at either width,
  - a table wider than the box that holds it when that box does not scroll (clipped),
  - a snippet's source link that does not open the highlighted source page with the
    snippet's first line in view (SNIPPET_PAGE's first snippet, followed in the browser),
  - a chapter page at phone width without its visible "all chapters" link (the
    chapter navigation at the top of the page),
and, reading every page's HTML, a link that opens raw Markdown (repo/....md), a
snippet's source link that is not a source page's line (src/<path>.html#L<n>), a
figure that is not a link to itself (to open it full size) or has no caption, number
or alt text (scripts/site_sources.py gives them), and
markup left raw in the text (`**` or a backtick outside code).
A screenshot of each page at each width goes to <site>/../site-shots/.

Usage: build/tools/bin/python scripts/check_site_browser.py build/release/docs/html
Exit 0 when every page passes, 1 when one fails, 77 when no Chromium or driver is found.
"""
import pathlib
import re
import shutil
import sys
import time

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
ROOT = pathlib.Path(__file__).resolve().parent.parent
SEARCH_WORD = "cudaStreamWaitEvent"  # in chapters' text, in no page title


SNIPPET_PAGE = "md_chapters_05_overlap_README.html"
RAW_MARKDOWN = re.compile(r'href="repo/[^"#]*\.md[#"]')
SNIPPET_LINK = re.compile(r'class="lab-snippet-source">from <a href="([^"]*)"')


def pages(site):
    chosen = [site / "index.html"] + sorted(site.glob("md_chapters_*_README.html"))
    sources = sorted(site.glob("src/chapters/05_overlap/overlap.cu.html")) or sorted(site.glob("*_source.html"))
    return chosen + sources[:1]


FIGURE = re.compile(r'<div class="image">\s*<(?:object[^>]*data|img[^>]*src)="([^"]+)"[^>]*>(.*?)</div></div>', re.S)


def raw_markup(text):
    """Markup Doxygen left in the text: `**` or a backtick outside <pre>, <code> and scripts."""
    body = re.sub(r"<(pre|code|script|style)\b.*?</\1>", " ", text, flags=re.S)
    body = re.sub(r'<div class="fragment">.*?</div><!-- fragment -->', " ", body, flags=re.S)  # code blocks
    words = re.sub(r"<[^>]+>", " ", body)
    return [m.group(0) for m in re.finditer(r"\S*(\*\*|`)\S*", words)]


def check_links_in_html(site):
    """No link opens raw Markdown; every snippet's source link is a line of a source page;
    every figure is a link to itself with a caption; no raw markup in the text."""
    problems = []
    for page in sorted(site.glob("*.html")):
        text = page.read_text(encoding="utf-8", errors="replace")
        if page.name.startswith(("md_", "index")):
            for figure in FIGURE.finditer(text):
                source, rest = figure.group(1), figure.group(2)
                if f'<a href="{source}"><div class="image">' not in text:
                    problems.append(f"{page.name}: figure {source} does not open full size (no link to itself)")
                if not re.search(r'<div class="caption">\s*\S', rest):
                    problems.append(f"{page.name}: figure {source} has no caption")
                if not re.search(r'(aria-label|alt)="[^"]+"', figure.group(0)) or "lab-figure-number" not in rest:
                    problems.append(f"{page.name}: figure {source} has no alt text or no number")
            problems += [f"{page.name}: raw markup in the text: {m}" for m in raw_markup(text)[:3]]
        problems += [f"{page.name}: a link opens raw Markdown: {m.group(0)}" for m in RAW_MARKDOWN.finditer(text)]
        for href in SNIPPET_LINK.findall(text):
            target, _, line = href.partition("#")
            if not (target.startswith("src/") and re.fullmatch(r"L\d+", line)):
                problems.append(f"{page.name}: a snippet links {href}, not a source page's line")
            elif not (site / target).is_file():
                problems.append(f"{page.name}: a snippet links {href}, which does not exist")
            elif f'id="{line}"' not in (site / target).read_text(encoding="utf-8", errors="replace"):
                problems.append(f"{page.name}: {href}: the source page has no line {line[1:]}")
    return problems


def check_snippet_link(driver, site, width_name):
    """Follow SNIPPET_PAGE's first snippet link: the source page opens with that line in view."""
    driver.get((site / SNIPPET_PAGE).as_uri())
    links = driver.find_elements("css selector", ".lab-snippet-source a")
    if not links:
        return [f"{SNIPPET_PAGE}: no snippet source link"]
    href = links[0].get_attribute("href")
    driver.get(href)
    line = href.rpartition("#")[2]
    top = driver.execute_script(
        "const e = document.getElementById(arguments[0]); return e ? e.getBoundingClientRect().top : null;", line)
    if top is None or not 0 <= top < driver.execute_script("return window.innerHeight;"):
        return [f"{SNIPPET_PAGE} at {width_name} width: the snippet link {href} did not open at its line (top {top})"]
    return []


def check_search(driver, site, shots):
    """Type SEARCH_WORD into the front page's search box, at both widths: every chapter whose
    page holds it must be listed, and the first result must open with the word marked."""
    want = {f"md_chapters_{readme.parent.name}_README.html" for readme in (ROOT / "chapters").glob("*/README.md")
            if SEARCH_WORD.lower() in readme.read_text(encoding="utf-8").lower()}
    if not want:
        return [f"search: no chapter page holds {SEARCH_WORD!r}: choose another SEARCH_WORD"]
    problems = []
    for width_name, size in WIDTHS.items():
        driver.set_window_size(*size)
        driver.get((site / "index.html").as_uri())
        box = driver.find_element("css selector", "#lab-search input")
        box.send_keys(SEARCH_WORD)
        found = []
        for _ in range(50):
            time.sleep(0.1)
            found = driver.execute_script(
                "return Array.from(document.querySelectorAll('#lab-search ol a')).map(a => a.href);")
            if found:
                break
        driver.save_screenshot(str(shots / f"search.{width_name}.png"))
        pages_found = {href.rsplit("/", 1)[-1].split("?")[0].split("#")[0] for href in found}
        problems += [f"search at {width_name} width: {SEARCH_WORD!r} did not list {page}"
                     for page in sorted(want - pages_found)]
        if found:
            driver.get(found[0])
            marked = driver.execute_script("return document.querySelectorAll('mark.lab-hit').length;")
            driver.save_screenshot(str(shots / f"search-hit.{width_name}.png"))
            if not marked:
                problems.append(f"search at {width_name} width: the first result opened with nothing marked")
    return problems


def main(argv):
    if len(argv) != 1 or not (pathlib.Path(argv[0]) / "index.html").exists():
        print(__doc__)
        return 2
    site = pathlib.Path(argv[0]).resolve()
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not browser or not driver_path:
        print("check_site_browser: skipped: no chromium and chromedriver (Debian: chromium chromium-driver)")
        return 77
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--allow-file-access-from-files", "--hide-scrollbars"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    shots = site.parent / "site-shots"
    shots.mkdir(exist_ok=True)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    problems, checked = [], 0
    try:
        for width_name, (width, height) in WIDTHS.items():
            driver.set_window_size(width, height)
            for page in pages(site):
                driver.get(page.as_uri())
                checked += 1
                where = f"{page.name} at {width_name} width"
                broken = driver.execute_script(
                    "return Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0))"
                    ".map(i => i.getAttribute('src'));")
                problems += [f"{where}: image {src} did not load" for src in broken]
                # Doxygen embeds an SVG figure as an <object>: it must take room on the page.
                empty = driver.execute_script(
                    "return Array.from(document.querySelectorAll('object')).filter(o => "
                    "o.getBoundingClientRect().height < 20).map(o => o.getAttribute('data'));")
                problems += [f"{where}: figure {src} shows nothing" for src in empty]
                for entry in driver.get_log("browser"):
                    if entry.get("level") == "SEVERE":
                        problems.append(f"{where}: console error: {entry.get('message')}")
                inner, scroll = driver.execute_script(
                    "return [window.innerWidth, document.documentElement.scrollWidth];")
                if scroll > inner + 1:
                    problems.append(f"{where}: the page is {scroll} px wide in a {inner} px window")
                clipped = driver.execute_script(
                    "return Array.from(document.querySelectorAll('table')).filter(t => {"
                    " let box = t.parentElement;"
                    " while (box && box !== document.body && getComputedStyle(box).overflowX === 'visible')"
                    " box = box.parentElement;"
                    " if (!box || box === document.body) return t.getBoundingClientRect().right > window.innerWidth + 1;"
                    " const o = getComputedStyle(box).overflowX;"
                    " return o !== 'auto' && o !== 'scroll' && t.scrollWidth > box.clientWidth + 1;"
                    "}).length;")
                if clipped:
                    problems.append(f"{where}: {clipped} table(s) clipped (wider than a box that does not scroll)")
                if page.name.startswith(("md_", "index")) and not driver.execute_script(
                        "return !!document.querySelector('#lab-search input');"):
                    problems.append(f"{where}: no search box (lab-search.js or its index did not load)")
                driver.save_screenshot(str(shots / f"{page.stem}.{width_name}.png"))
            if width_name == "phone":
                for chapter in sorted(site.glob("md_chapters_*_README.html"))[:2]:
                    driver.get(chapter.as_uri())
                    shown = driver.execute_script(
                        "return Array.from(document.querySelectorAll('a')).some(a => a.textContent.trim() === "
                        "'all chapters' && a.getBoundingClientRect().height > 0);")
                    if not shown:
                        problems.append(f"{chapter.name} at phone width: no visible 'all chapters' link")
            problems += check_snippet_link(driver, site, width_name)
            driver.save_screenshot(str(shots / f"snippet-link.{width_name}.png"))
        problems += check_search(driver, site, shots)
        problems += check_links_in_html(site)
    finally:
        driver.quit()
    for p in problems:
        print(p)
    print(f"check_site_browser: {checked} page views ({len(pages(site))} pages x {len(WIDTHS)} widths): "
          f"{len(problems)} problem(s); screenshots in {shots}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
