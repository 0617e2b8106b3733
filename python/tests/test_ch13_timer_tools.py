"""python/ch13_timer_tools.py's pure parts, on made-up numbers (no GPU, no PyTorch):
every branch of the verdict, the profiler record split into calls, the report the
table and the JSON are drawn from, the printed layout, and the command line."""
import json

import pytest

import ch13_timer_tools as script

IDS = [w.id for w in script.WORKLOADS]


# --- verdict: one branch per test line -----------------------------------------------------

def test_ch13_tools_verdict_near_inside_the_band_and_on_its_edges():
    assert script.verdict(10.0, 10.0) == "near"
    assert script.verdict(10.0, 5.0) == "near"  # 0.5x: the edge is inside
    assert script.verdict(10.0, 20.0) == "near"  # 2x: the edge is inside


def test_ch13_tools_verdict_off_below_and_above():
    assert script.verdict(1000.0, 37.0) == "off"  # a cache or a side stream: 0.04x
    assert script.verdict(2.3, 2055.0) == "off"  # CPU work in the call: 893x
    assert script.verdict(10.0, 4.99) == "off"
    assert script.verdict(10.0, 20.01) == "off"


def test_ch13_tools_verdict_refused_wins_over_any_number():
    assert script.verdict(10.0, None, "cannot capture") == "refused"
    assert script.verdict(None, 10.0, "cannot capture") == "refused"


def test_ch13_tools_verdict_without_a_truth_or_a_reading():
    assert script.verdict(None, 10.0) == "no truth"
    assert script.verdict(0.0, 10.0) == "no truth"
    assert script.verdict(10.0, None) == "no truth"


def test_ch13_tools_verdict_follows_the_band_given():
    assert script.verdict(10.0, 13.0, band=(0.9, 1.1)) == "off"
    assert script.verdict(10.0, 10.5, band=(0.9, 1.1)) == "near"


# --- spans_by_call: the profiler record split into calls ----------------------------------

def test_ch13_tools_spans_keep_each_calls_events_and_drop_the_preparation():
    ranges = [(0.0, "prep", 0), (100.0, "call", 0), (200.0, "prep", 1), (300.0, "call", 1)]
    events = [(10.0, 60.0),  # the flush: before call 0, dropped
              (105.0, 108.0), (110.0, 1110.0),  # call 0: an add, then a spin on another stream
              (210.0, 260.0),  # the flush before call 1, dropped
              (305.0, 307.5)]  # call 1
    assert script.spans_by_call(ranges, events) == {0: 1005.0, 1: 2.5}


def test_ch13_tools_spans_are_none_for_a_call_without_events_and_ignore_unowned_ones():
    ranges = [(100.0, "call", 0), (200.0, "call", 1)]
    events = [(50.0, 60.0), (150.0, 152.0)]  # the first began before any range
    assert script.spans_by_call(ranges, events) == {0: 2.0, 1: None}


def test_ch13_tools_spans_do_not_depend_on_the_order_given():
    ranges = [(300.0, "call", 1), (100.0, "call", 0)]
    events = [(305.0, 310.0), (120.0, 130.0), (101.0, 103.0)]
    assert script.spans_by_call(ranges, events) == {0: 29.0, 1: 5.0}


# --- build_report and render: one record, the table drawn from it ------------------------

def made_up_run():
    """A run in the shape measure() returns, numbers made up (chapter 13's H200 pair for the naive column)."""
    truth = {w.id: [2.0, 3.0, 2.5] for w in script.WORKLOADS}
    truth["long"] = [1000.0, 1001.0, 1002.0]
    truth["first_launch"] = [2.4, 9.0, 9.0]  # the first call alone counts
    truth["cached"] = [1003.0, 3.0, 3.0]
    truth["left_queued"] = [None]  # the profiler saw nothing: no truth
    readings = {tool.id: {w.id: [2.6] for w in script.WORKLOADS} for tool in script.TOOLS}
    readings["event_pair"].update(short=[24.0, 25.0, 26.0], long=[1021.0], first_launch=[84.0], cached=[37.0],
                                  cpu_bound=[2055.0])
    refusals = {"graph_replay": {"cpu_bound": "its CPU work is not part of a graph: a replay skips it"}}
    return truth, readings, refusals


def test_ch13_tools_report_computes_truth_ratio_and_verdict_per_cell():
    report = script.build_report(*made_up_run(), {"samples": 3, "device": "made up"})
    rows = {row["id"]: row for row in report["workloads"]}
    assert [row["id"] for row in report["workloads"]] == IDS
    assert rows["short"]["truth_us"] == 2.5  # median of 2, 3, 2.5
    assert rows["first_launch"]["truth_us"] == 2.4  # the first call only
    assert rows["cached"]["truth_us"] == 1003.0
    assert rows["left_queued"]["truth_us"] is None
    cell = rows["short"]["cells"]["event_pair"]
    assert cell["reading_us"] == 25.0 and cell["ratio"] == 10.0 and cell["verdict"] == "off" and not cell["caught"]
    cell = rows["long"]["cells"]["event_pair"]
    assert cell["verdict"] == "near" and cell["caught"]
    assert rows["left_queued"]["cells"]["do_bench"]["verdict"] == "no truth"
    refused = rows["cpu_bound"]["cells"]["graph_replay"]
    assert refused["verdict"] == "refused" and refused["caught"] and refused["reading_us"] is None
    assert refused["samples_us"] == []  # a refusal keeps no reading, even one handed in
    assert report["samples"] == 3 and report["device"] == "made up" and report["band"] == [0.5, 2.0]
    json.dumps(report)  # what --json writes


def test_ch13_tools_summary_lists_caught_and_not_caught_per_tool():
    report = script.build_report(*made_up_run(), {"samples": 3})
    naive = report["summary"]["event_pair"]
    assert naive["not_caught"] == ["short", "first_launch", "cached", "cpu_bound", "left_queued"]
    assert naive["caught"] == [i for i in IDS if i not in naive["not_caught"]]
    graph = report["summary"]["graph_replay"]
    assert "cpu_bound" in graph["caught"] and "cached" in graph["not_caught"]  # 2.6 against 1003


def test_ch13_tools_table_prints_what_the_report_holds():
    report = script.build_report(*made_up_run(), {"samples": 3})
    lines = script.render(report)
    text = "\n".join(lines)
    assert "median of 3 samples" in lines[0]
    for tool in script.TOOLS:
        assert tool.name in lines[1]
    short = next(line for line in lines if line.startswith("  short "))
    assert "2.50" in short and "25.00" in short and "10x off" in short
    cpu = next(line for line in lines if line.startswith("  cpu_bound "))
    assert "cannot capture" in cpu and "2055.00" in cpu
    assert "graph replay, cpu_bound: cannot capture: its CPU work is not part of a graph" in text
    queued = next(line for line in lines if line.startswith("  left_queued "))
    assert "no truth" in queued
    assert "event pair     caught      5: long, l2_resident, side_stream, late_copy, wrong_stream" in text
    assert "not caught  5: short, first_launch, cached, cpu_bound, left_queued" in text
    assert all(line == line.rstrip() for line in lines)


def test_ch13_tools_output_check_line_says_all_right_or_where_it_was_wrong():
    run = made_up_run()
    assert not any("Every output" in line for line in script.render(script.build_report(*run, {"samples": 3})))
    lines = script.render(script.build_report(*run, {"samples": 3, "wrong_values": {"truth/short": 0,
                                                                                   "do_bench/short": 0}}))
    assert lines[-1] == "Every output against torch.add after timing (2 checks): all right"
    lines = script.render(script.build_report(*run, {"samples": 3, "wrong_values": {"truth/short": 0,
                                                                                   "graph_replay/long": 7}}))
    assert lines[-1] == "Every output against torch.add after timing (2 checks): WRONG in graph_replay/long (7)"


def test_ch13_tools_cell_without_a_reading_is_a_dash():
    cell = {"refusal": None, "reading_us": None, "ratio": None, "verdict": "no truth"}
    assert script.format_cell(cell).strip() == "-"
    cell = {"refusal": None, "reading_us": 3.0, "ratio": None, "verdict": "no truth"}
    assert "3.00" in script.format_cell(cell) and " - " in script.format_cell(cell)


# --- the gallery's declarations --------------------------------------------------------------

def test_ch13_tools_gallery_is_chapter_13s():
    assert IDS == ["short", "long", "first_launch", "l2_resident", "side_stream", "late_copy", "cached", "cpu_bound",
                   "wrong_stream", "left_queued"]
    assert [w.id for w in script.WORKLOADS if w.honest] == IDS[:4]
    refused = {w.id for w in script.WORKLOADS if w.capture_refusal}
    assert refused == {"side_stream", "late_copy", "cached", "cpu_bound"}
    assert {w.id for w in script.WORKLOADS if w.truth_first_call} == {"first_launch", "cached"}


# --- the command line -------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [["--samples", "0"], ["--samples", "x"], ["--bogus"]])
def test_ch13_tools_bad_command_line_exits_2(argv):
    with pytest.raises(SystemExit) as exit_info:
        script.main(argv)
    assert exit_info.value.code == 2


def test_ch13_tools_help_exits_0(capsys):
    with pytest.raises(SystemExit) as exit_info:
        script.main(["--help"])
    assert exit_info.value.code == 0
    assert "--samples" in capsys.readouterr().out


def test_ch13_tools_without_torch_or_triton_exits_77_with_one_line(monkeypatch, capsys):
    monkeypatch.setattr(script, "unavailable_reason", lambda: "triton is not installed")
    assert script.main(["--samples", "20", "--json", "unused.json"]) == 77
    assert capsys.readouterr().out == "skipped: triton is not installed\n"


# --- on a GPU (skipped without PyTorch, a CUDA GPU or triton) -----------------------------------

def test_ch13_tools_main_on_the_gpu_writes_every_cell_and_exits_0(tmp_path, capsys):
    if script.unavailable_reason():
        pytest.skip(script.unavailable_reason())
    path = tmp_path / "ch13_timer_tools.json"
    assert script.main(["--samples", "3", "--json", str(path)]) == 0
    report = json.loads(path.read_text())
    assert [row["id"] for row in report["workloads"]] == IDS
    assert all(count == 0 for count in report["wrong_values"].values())
    for row in report["workloads"]:
        assert row["truth_us"] is not None and row["truth_us"] > 0, row["id"]
        for tool in script.TOOLS:
            cell = row["cells"][tool.id]
            assert cell["refusal"] or cell["reading_us"] > 0, (row["id"], tool.id)
    long_row = next(row for row in report["workloads"] if row["id"] == "long")
    assert 0.5 < long_row["truth_us"] / 1000.0 < 2  # the 1 ms kernel, by the profiler
    assert "Caught (near or refused)" in capsys.readouterr().out
