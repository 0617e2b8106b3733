#!/usr/bin/env python3
"""scripts/report's folder in a real browser, with the network cut: headless Chromium driven by
Selenium (Debian's chromium and chromium-driver; selenium pinned in python/requirements-tools.txt)
opens index.html from file:// at desktop width (1280 px) and phone width (390 px), and fails on
  - an image (a redrawn figure) that did not load,
  - an error in the browser's console, or a request that needed the network,
  - a page wider than its window,
  - a timeline that plotly did not draw, or a bar whose hover shows no name, stream (or SM), start and
    duration.
Screenshots go to <report>/../report-shots/.

Usage: scripts/check_report_browser.py build/report
       scripts/check_report_browser.py --self-made   (builds one from the kept runs; ctest tools.report_browser)
Exit 0 when every view passes, 1 when one fails, 77 when no Chromium or driver is found.
"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

try:
    import selenium  # noqa: F401
except ImportError:  # run again with build/tools (scripts/tools installs it from PyPI the first time)
    if os.environ.get("LAB_REPORT_REEXEC"):
        sys.exit("check_report_browser: selenium is missing even in build/tools (python/requirements-tools.txt)")
    tools = subprocess.run([str(pathlib.Path(__file__).resolve().parent / "tools")], check=True,
                           capture_output=True, text=True).stdout.strip()
    os.environ["LAB_REPORT_REEXEC"] = "1"
    os.execv(f"{tools}/python", [f"{tools}/python", str(pathlib.Path(__file__).resolve()), *sys.argv[1:]])

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
ROOT = pathlib.Path(__file__).resolve().parent.parent
KEPT_H100 = ROOT / "docs" / "results" / "h100-2026-11-25" / "run5"
KEPT_H200 = ROOT / "docs" / "results" / "h200-2026-12-02e"


def make_report(folder):
    """A small report of the kept H100 run against the H200: chapters 01, 05 and 11, their figures, the
    timeline of chapter 05's trace and chapter 11's block timeline."""
    run = folder / "run"
    run.mkdir()
    for name in ("ch01_kernel_launch.json", "ch05_overlap.json", "ch05_overlap.trace.json",
                 "ch11_who_gets_the_gpu.json"):
        shutil.copyfile(KEPT_H100 / name, run / name)
    out = folder / "report"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "report"), str(run), "--reference", str(KEPT_H200),
                    "--out", str(out)], check=True, stdout=subprocess.DEVNULL)
    return out


def hover_problems(driver, where):
    """Moves the mouse onto the first bar of every timeline; its tooltip must show its numbers."""
    from selenium.webdriver.common.action_chains import ActionChains
    problems = []
    for plot in driver.find_elements("css selector", ".js-plotly-plot"):
        bars = plot.find_elements("css selector", ".barlayer .point path")
        if not bars:
            problems.append(f"{where}: timeline {plot.get_attribute('id')} has no bars")
            continue
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", bars[0])
        ActionChains(driver).move_to_element(bars[0]).perform()
        text = ""
        for _ in range(30):
            time.sleep(0.1)
            text = " ".join(t.text for t in plot.find_elements("css selector", ".hoverlayer .hovertext"))
            if text:
                break
        if not ("start" in text and "duration" in text and ("stream" in text or "SM " in text)):
            problems.append(f"{where}: hovering a bar of {plot.get_attribute('id')} showed {text!r}")
    return problems


def check(report, shots):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--allow-file-access-from-files", "--hide-scrollbars"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    problems, timelines = [], 0
    try:
        # No network at all: a CDN script or a web font would fail, and say so in the console.
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0})
        for width_name, (width, height) in WIDTHS.items():
            driver.set_window_size(width, height)
            driver.get((report / "index.html").as_uri())
            where = f"index.html at {width_name} width"
            broken = driver.execute_script(
                "return Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0))"
                ".map(i => i.getAttribute('src'));")
            problems += [f"{where}: image {src} did not load" for src in broken]
            remote = driver.execute_script(
                "return Array.from(document.querySelectorAll('script[src], link[href], img[src]'))"
                ".map(e => e.getAttribute('src') || e.getAttribute('href')).filter(u => /^(https?:)?\\/\\//.test(u));")
            problems += [f"{where}: {url} needs the network" for url in remote]
            timelines = len(driver.find_elements("css selector", ".js-plotly-plot"))
            problems += hover_problems(driver, where)
            for entry in driver.get_log("browser"):
                if entry.get("level") == "SEVERE":
                    problems.append(f"{where}: console error: {entry.get('message')}")
            inner, scroll = driver.execute_script("return [window.innerWidth, document.documentElement.scrollWidth];")
            if scroll > inner + 1:
                problems.append(f"{where}: the page is {scroll} px wide in a {inner} px window")
            driver.save_screenshot(str(shots / f"report.{width_name}.png"))
    finally:
        driver.quit()
    if not timelines and (report / "assets" / "plotly.min.js").exists():
        problems.append("index.html: plotly.min.js is in the folder but no timeline was drawn")
    return problems, timelines


def main(argv):
    if not (shutil.which("chromium") or shutil.which("chromium-browser")) or not shutil.which("chromedriver"):
        print("check_report_browser: skipped: no chromium and chromedriver (Debian: chromium chromium-driver)")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        if argv == ["--self-made"]:
            report = make_report(pathlib.Path(tmp))
        elif len(argv) == 1 and (pathlib.Path(argv[0]) / "index.html").exists():
            report = pathlib.Path(argv[0]).resolve()
        else:
            print(__doc__)
            return 2
        shots = report.parent / "report-shots"
        shots.mkdir(exist_ok=True)
        problems, timelines = check(report, shots)
        for p in problems:
            print(p)
        print(f"check_report_browser: {len(WIDTHS)} widths, {timelines} timeline(s) hovered, offline: "
              f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
