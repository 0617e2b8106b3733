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
    chapter whose page holds it (docs/site/lab-search.js).
A screenshot of each page at each width goes to <site>/../site-shots/.

Usage: build/tools/bin/python scripts/check_site_browser.py build/release/docs/html
Exit 0 when every page passes, 1 when one fails, 77 when no Chromium or driver is found.
"""
import pathlib
import shutil
import sys
import time

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
ROOT = pathlib.Path(__file__).resolve().parent.parent
SEARCH_WORD = "cudaStreamWaitEvent"  # in chapters' text, in no page title


def pages(site):
    chosen = [site / "index.html"] + sorted(site.glob("md_chapters_*_README.html"))
    sources = sorted(site.glob("*command__line_8hpp_source.html")) or sorted(site.glob("*_source.html"))
    return chosen + sources[:1]


def check_search(driver, site, shots):
    """Type SEARCH_WORD into the front page's search box: every chapter whose page holds it must be listed."""
    want = {f"md_chapters_{readme.parent.name}_README.html" for readme in (ROOT / "chapters").glob("*/README.md")
            if SEARCH_WORD.lower() in readme.read_text(encoding="utf-8").lower()}
    if not want:
        return [f"search: no chapter page holds {SEARCH_WORD!r}: choose another SEARCH_WORD"]
    driver.set_window_size(*WIDTHS["desktop"])
    driver.get((site / "index.html").as_uri())
    box = driver.find_element("css selector", "#lab-search input")
    box.send_keys(SEARCH_WORD)
    found = set()
    for _ in range(50):
        time.sleep(0.1)
        found = set(driver.execute_script(
            "return Array.from(document.querySelectorAll('#lab-search ol a')).map(a => a.getAttribute('href'));"))
        if found:
            break
    driver.save_screenshot(str(shots / "search.desktop.png"))
    pages_found = {href.split("#")[0] for href in found}
    missing = sorted(want - pages_found)
    return [f"search: {SEARCH_WORD!r} did not list {page}" for page in missing]


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
                if page.name.startswith(("md_", "index")) and not driver.execute_script(
                        "return !!document.querySelector('#lab-search input');"):
                    problems.append(f"{where}: no search box (lab-search.js or its index did not load)")
                driver.save_screenshot(str(shots / f"{page.stem}.{width_name}.png"))
        problems += check_search(driver, site, shots)
    finally:
        driver.quit()
    for p in problems:
        print(p)
    print(f"check_site_browser: {checked} page views ({len(pages(site))} pages x {len(WIDTHS)} widths): "
          f"{len(problems)} problem(s); screenshots in {shots}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
