"""python/lab_chapters.py's sharing of C++ chapter runs between the scripts (no GPU, no PyTorch):
which kept run measured what a script asks for, and that a shared run is used, not run again."""
import json
import os
import stat

import pytest

import lab_chapters

KEPT = lab_chapters.REPO / "docs" / "results" / "h200-2026-12-02e"

TOUR = {"schema": 2, "chapter": "01_kernel_launch", "date": "2026-12-02T05:39:54Z", "instrumented": False,
        "options": {"json": "/x/ch01_kernel_launch.json", "instrumented": False, "n": 67108864, "block": 256,
                    "reps": 20, "seed": 1, "kernel-ms": 20.0, "timeline": False}, "results": []}


@pytest.mark.parametrize("args", [["--n", "64Mi", "--reps", "20"], ["--n", "67108864"], [], ["--kernel-ms", "20"],
                                  ["--block", "256", "--seed", "1"]])
def test_same_options_when_every_asked_value_is_the_runs(args):
    assert lab_chapters.same_options(TOUR, args)


@pytest.mark.parametrize("args", [["--n", "1Mi", "--reps", "20"], ["--reps", "10"], ["--streams", "4"],
                                  ["--timeline"], ["--json", "/x/ch01_kernel_launch.json"], ["--kernel-ms", "abc"],
                                  ["--timeline", "0"], ["n", "64Mi"]])
def test_other_options_a_flag_or_an_unknown_option_never_match(args):
    assert not lab_chapters.same_options(TOUR, args)


def test_an_instrumented_run_or_no_run_never_matches():
    assert not lab_chapters.same_options(dict(TOUR, instrumented=True), [])
    assert not lab_chapters.same_options(None, [])


@pytest.fixture
def fake_build(tmp_path):
    """A build tree whose ch01_kernel_launch writes TOUR (with n as asked) and counts its runs."""
    folder = tmp_path / "build" / "chapters" / "01_kernel_launch"
    folder.mkdir(parents=True)
    program = folder / "ch01_kernel_launch"
    program.write_text(f"""#!/usr/bin/env python3
import json, sys
args = sys.argv[1:]
open({str(tmp_path / "count")!r}, "a").write("run\\n")
report = json.loads({json.dumps(json.dumps(TOUR))})
report["options"]["n"] = int(args[args.index("--n") + 1])
json.dump(report, open(args[args.index("--json") + 1], "w"))
""")
    program.chmod(program.stat().st_mode | stat.S_IEXEC)
    return tmp_path


def runs(tmp_path):
    count = tmp_path / "count"
    return len(count.read_text().splitlines()) if count.exists() else 0


def test_without_the_variables_every_call_runs_the_chapter(fake_build, monkeypatch, capsys):
    monkeypatch.delenv(lab_chapters.TOUR_ENV, raising=False)
    monkeypatch.delenv(lab_chapters.RUNS_ENV, raising=False)
    for _ in range(2):
        assert lab_chapters.run_chapter("ch01_kernel_launch", ["--n", "1024"], fake_build / "build")["options"]["n"] == 1024
    assert runs(fake_build) == 2
    assert "figures from" not in capsys.readouterr().out


def test_the_tours_run_is_used_when_the_options_match_and_says_so(fake_build, monkeypatch, capsys):
    tour = fake_build / "tour"
    tour.mkdir()
    (tour / "ch01_kernel_launch.json").write_text(json.dumps(TOUR))
    monkeypatch.setenv(lab_chapters.TOUR_ENV, str(tour))
    monkeypatch.delenv(lab_chapters.RUNS_ENV, raising=False)
    report = lab_chapters.run_chapter("ch01_kernel_launch", ["--n", "64Mi", "--reps", "20"], fake_build / "build")
    assert report["date"] == TOUR["date"] and runs(fake_build) == 0
    out = capsys.readouterr().out
    assert "figures from" in out and "ch01_kernel_launch.json" in out and TOUR["date"] in out
    lab_chapters.run_chapter("ch01_kernel_launch", ["--n", "1024"], fake_build / "build")  # other options: run
    assert runs(fake_build) == 1


def test_a_run_is_kept_for_the_next_script_that_asks_the_same(fake_build, monkeypatch):
    monkeypatch.delenv(lab_chapters.TOUR_ENV, raising=False)
    monkeypatch.setenv(lab_chapters.RUNS_ENV, str(fake_build / "runs"))
    first = lab_chapters.run_chapter("ch01_kernel_launch", ["--n", "1024", "--reps", "3"], fake_build / "build")
    again = lab_chapters.run_chapter("ch01_kernel_launch", ["--n", "1024", "--reps", "3"], fake_build / "build")
    assert first == again and runs(fake_build) == 1
    lab_chapters.run_chapter("ch01_kernel_launch", ["--n", "2048", "--reps", "3"], fake_build / "build")
    assert runs(fake_build) == 2
    assert sorted(p.name for p in (fake_build / "runs").iterdir()) == [
        "ch01_kernel_launch.n_1024_reps_3.json", "ch01_kernel_launch.n_2048_reps_3.json"]


def test_a_kept_run_of_another_chapter_is_never_used(fake_build, monkeypatch):
    tour = fake_build / "tour"
    tour.mkdir()
    (tour / "ch01_kernel_launch.json").write_text(json.dumps(dict(TOUR, chapter="03_events")))
    monkeypatch.setenv(lab_chapters.TOUR_ENV, str(tour))
    monkeypatch.delenv(lab_chapters.RUNS_ENV, raising=False)
    lab_chapters.run_chapter("ch01_kernel_launch", ["--n", "64Mi"], fake_build / "build")
    assert runs(fake_build) == 1


@pytest.mark.parametrize("name, args", [
    ("ch01_kernel_launch", ["--n", "64Mi", "--reps", "20"]),  # ch01_add_extension.py, bench_measure_vs_do_bench.py
    ("ch03_events", ["--n", "1048576", "--reps", "20"]),  # ch03_events.py, numba_ch03_events.py
    ("ch04_streams", ["--n", "10000000", "--arrays", "10", "--streams", "10", "--reps", "5", "--race-reps", "20"]),
    ("ch04_streams", ["--n", "10000000", "--arrays", "10", "--streams", "10", "--reps", "5"]),  # numba_ch04_streams.py
    ("ch10_dependent_launch", ["--n", "65536", "--kernels", "100", "--reps", "20", "--preamble-us", "0.5"]),
])
def test_a_kept_tours_json_serves_the_scripts_that_ask_for_its_options(name, args, monkeypatch, capsys):
    """The tour's own JSON (a kept run), as gpu-check points LAB_CHAPTER_TOUR at it."""
    monkeypatch.setenv(lab_chapters.TOUR_ENV, str(KEPT))
    monkeypatch.delenv(lab_chapters.RUNS_ENV, raising=False)
    report, path = lab_chapters.shared_run(name, args)
    assert path == KEPT / f"{name}.json" and report["results"]
    assert lab_chapters.run_chapter(name, args, None) == report  # no build given: only the kept run can answer
    assert f"figures from {path}" in capsys.readouterr().out


def test_a_kept_tours_json_does_not_serve_other_options(monkeypatch):
    monkeypatch.setenv(lab_chapters.TOUR_ENV, str(KEPT))
    monkeypatch.delenv(lab_chapters.RUNS_ENV, raising=False)
    assert lab_chapters.shared_run("ch06_pinned_memory", ["--mib", "256", "--max-mib", "256", "--reps", "5"]) == (None, None)
    assert lab_chapters.shared_run("ch03_events", ["--n", "1048576", "--reps", "20"])[1] is not None
    assert lab_chapters.shared_run("ch01_kernel_launch", ["--n", "1Mi", "--reps", "3"]) == (None, None)
