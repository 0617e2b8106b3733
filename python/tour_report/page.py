"""The report's cells and its index.html: per chapter, the learner's headline numbers beside the
reference runs, each check as the chapter printed it with "held on your GPU" or "did not hold",
what the chapter skipped, its figures and its interactive timelines. Every verdict is a check's
own "passed"/"judged"; every sentence is the one the chapter printed."""
import html

from .headlines import HEADLINES, headline_cells
from .runs import PARTLY_SKIPPED

HELD, NOT_HELD, NOT_JUDGED, ABSENT = "held", "did not hold", "not judged", "not in this run"

STYLE = """
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:0 12px;color:#222;line-height:1.4}
table{border-collapse:collapse;margin:6px 0 14px;width:100%;font-size:14px}
th,td{border:1px solid #ccc;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f3f3f3}.wide{overflow-x:auto}
td.held{background:#e6f4ea}td.not-held{background:#fde7e9;font-weight:bold}td.not-judged,td.absent{color:#666}
.detail{font-size:12px;color:#444}section{border-top:2px solid #888;margin-top:24px}
.status-failed{color:#b00020;font-weight:bold}.status-part{color:#8a5a00;font-weight:bold}
figure{margin:8px 0}figure img{max-width:100%;height:auto;border:1px solid #ddd}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:12px}
.timeline{width:100%;min-height:300px}code{font-size:13px;overflow-wrap:anywhere}
"""


def verdict(check):
    """The verdict of one check of one run: held, did not hold, not judged (instrumented), or absent."""
    if check is None or "passed" not in check:
        return ABSENT
    if not check["judged"]:
        return NOT_JUDGED
    return HELD if check["passed"] else NOT_HELD


def printed(check):
    """The check's line as the chapter printed it (common/harness/report.cpp, Report::add)."""
    if "passed" not in check:  # an observation in this run
        return f"-> {check['text']}"
    tag = "NOT JUDGED" if not check["judged"] else "PASS" if check["passed"] else "FAIL"
    return f"[{tag}] {check['name']}: {check['detail']}"


def chapter_rows(yours, references, name):
    """{'checks': [...], 'observations': [...], 'skipped': [...], 'headlines': [...], 'status': ...} of
    chapter @name: the data the page and the summary.json show, every cell from the runs' JSON."""
    mine = yours.chapters.get(name)
    theirs = [run.chapters.get(name) for run in references]
    base = mine or next(c for c in theirs if c is not None)  # the chapter's checks as some run printed them
    checks = []
    for check in base.checks:
        fid = check["finding_id"]
        own = mine.same_finding(fid) if mine else None
        cells = [c.same_finding(fid) if c else None for c in theirs]
        checks.append({"finding_id": fid, "name": check["name"], "yours": verdict(own),
                       "printed": printed(own) if own else printed(check),
                       "references": [{"verdict": verdict(c), "printed": printed(c) if c else ""} for c in cells]})
    observations = [{"finding_id": f["finding_id"], "printed": printed(f),
                     "references": [printed(c.same_finding(f["finding_id"])) if c and c.same_finding(
                         f["finding_id"]) else "" for c in theirs]} for f in (mine.observations() if mine else [])]
    headlines = [{"what": spec[0], "yours": headline_cells(mine, spec),
                  "references": [headline_cells(c, spec) for c in theirs]} for spec in HEADLINES.get(name, [])]
    held, judged = mine.held() if mine else (0, 0)
    return {"chapter": name, "status": mine.status() if mine else "not run",
            "date": mine.date if mine else "", "held": held, "judged": judged,
            "skipped": [f["text"] for f in mine.skipped()] if mine else [],
            "references_held": [list(c.held()) if c else None for c in theirs],
            "checks": checks, "observations": observations, "headlines": headlines}


def summary_line(row, references):
    """One line per chapter for the terminal: its status and how many checks held, on each run."""
    name = row["chapter"]
    if row["status"] == "not run":
        return f"{name}: not run on your GPU (no {name}.json: the chapter found no usable GPU or stopped early)"
    theirs = "; ".join(f"{run.label}: " + (f"{held[0]} of {held[1]}" if held else "not run")
                       for run, held in zip(references, row["references_held"]))
    line = f"{name}: {row['held']} of {row['judged']} checks held on your GPU ({row['status']})"
    if theirs:
        line += f" [{theirs}]"
    if row["skipped"]:  # chapter 09 sums its skipped sections up in one finding, the last
        summed = [text for text in row["skipped"] if text.startswith(PARTLY_SKIPPED)]
        line += "; " + "; ".join(summed[-1:] or row["skipped"])
    return line


def esc(text):
    return html.escape(str(text))


def css_class(cell):
    return {HELD: "held", NOT_HELD: "not-held", NOT_JUDGED: "not-judged"}.get(cell, "absent")


def runs_table(yours, references):
    lines = ['<div class="wide"><table><tr><th></th><th>GPU</th><th>driver (CUDA)</th><th>date</th>'
             '<th>folder</th></tr>']
    for who, run in [("yours", yours)] + [("reference", r) for r in references]:
        lines.append(f"<tr><th>{who}</th><td>{esc(run.device)}</td><td>{esc(run.driver)} ({esc(run.cuda)})</td>"
                     f"<td>{esc(run.date)}</td><td><code>{esc(run.shown)}</code></td></tr>")
    return "\n".join(lines + ["</table></div>"])


def chapter_section(row, yours, references, figures, timelines):
    mine = f"<th>your GPU ({esc(yours.label)})</th>"
    heads = "".join(f"<th>{esc(r.label)}</th>" for r in references)
    status = {"failed": "status-failed", "in part": "status-part", "not run": "status-failed"}.get(row["status"], "")
    out = [f'<section id="{esc(row["chapter"])}"><h2>{esc(row["chapter"])}</h2>',
           f'<p>Your run: <span class="{status}">{esc(row["status"])}</span>'
           + (f", {row['held']} of {row['judged']} checks held on your GPU ({esc(row['date'])})"
              if row["status"] != "not run" else ": no JSON for this chapter in your folder (it found no usable GPU"
              ", or stopped before writing its results)") + "</p>"]
    if row["skipped"]:
        out.append("<p>Skipped on your GPU, as the chapter printed it:</p><ul>"
                   + "".join(f"<li>{esc(text)}</li>" for text in row["skipped"]) + "</ul>")
    if row["headlines"]:
        out.append(f'<div class="wide"><table><tr><th>headline</th>{mine}{heads}</tr>')
        for h in row["headlines"]:
            out.append(f"<tr><td>{esc(h['what'])}</td><td>{esc(h['yours'])}</td>"
                       + "".join(f"<td>{esc(v)}</td>" for v in h["references"]) + "</tr>")
        out.append("</table></div>")
    out.append(f'<div class="wide"><table class="checks"><tr><th>check, as your run printed it</th>'
               f'{mine}{heads}</tr>')
    for c in row["checks"]:
        cells = "".join(f'<td class="{css_class(r["verdict"])}" title="{esc(r["printed"])}">{esc(r["verdict"])}'
                        f'<div class="detail">{esc(r["printed"])}</div></td>' for r in c["references"])
        yours_cell = "held on your GPU" if c["yours"] == HELD else c["yours"]
        out.append(f'<tr data-finding="{esc(c["finding_id"])}"><td>{esc(c["printed"])}</td>'
                   f'<td class="{css_class(c["yours"])} verdict">{esc(yours_cell)}</td>{cells}</tr>')
    out.append("</table></div>")
    if row["observations"]:
        out.append(f'<div class="wide"><table><tr><th>measured comparisons, as your run printed them</th>{heads}</tr>')
        for o in row["observations"]:
            out.append(f"<tr><td>{esc(o['printed'])}</td>"
                       + "".join(f'<td class="detail">{esc(t) or ABSENT}</td>' for t in o["references"]) + "</tr>")
        out.append("</table></div>")
    for pair in figures:  # your figure, and beside it the kept run's
        out.append('<div class="figures">' + "".join(
            f'<figure><img src="{esc(src)}" alt="{esc(caption)}"><figcaption>{esc(caption)}'
            f"</figcaption></figure>" for src, caption in pair) + "</div>")
    out.extend(timelines)
    out.append("</section>")
    return "\n".join(out)


def index_html(yours, references, rows, figures, timelines, notes):
    """The whole page; @figures maps a chapter to its figures (each a list: yours, the kept run's),
    @timelines to its timeline divs."""
    summary = "".join(f'<li><a href="#{esc(r["chapter"])}">{esc(summary_line(r, references))}</a></li>'
                      for r in rows)
    body = "\n".join(chapter_section(r, yours, references, figures.get(r["chapter"], []),
                                     timelines.get(r["chapter"], [])) for r in rows)
    script = '<script src="assets/plotly.min.js"></script>' if any(timelines.values()) else ""
    note_list = "".join(f"<li>{esc(n)}</li>" for n in notes)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>CUDA Async Lab: your GPU beside the kept runs</title><style>{STYLE}</style>{script}</head>
<body><h1>Your GPU beside the kept runs</h1>
<p>Each check is the chapter's own, as it printed it; "held on your GPU" means your run judged it and it
passed. The chapter pages (chapters/NN_name/README.md) say what each check shows and why.</p>
{runs_table(yours, references)}
<h2>Summary</h2><ul>{summary}</ul>
{('<ul>' + note_list + '</ul>') if notes else ''}
{body}
</body></html>
"""
