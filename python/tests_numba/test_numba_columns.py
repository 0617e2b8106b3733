"""The three columns (Numba, the C++ chapter, PyTorch) that every Numba script prints from
one run: each figure lands on its own row, a column this run could not measure says
"skipped" with its reason (never a 0 or a number from elsewhere), and a misnamed row is an
error. Pure data, no Numba, PyTorch or GPU needed (fake measurements and fake reports)."""
import pytest

import lab_chapters
import numba_ch03_events
import numba_ch04_streams
import numba_ch06_pinned_memory
import numba_lab

Skipped = numba_lab.Skipped


def report(*rows):
    """A fake chapter --json report (schema 2) with rows (table id, name, {field: value})."""
    return {"schema": lab_chapters.SCHEMA,
            "results": [{"table_id": table_id, "name": name, **fields} for table_id, name, fields in rows]}


def test_merge_puts_each_value_on_its_row_by_key_not_by_order():
    rows = numba_lab.merge([("a", "row a"), ("b", "row b")], {"b": 2.0, "a": 1.0}, {"a": 10.0, "b": 20.0},
                           {"b": 200.0, "a": 100.0})
    assert rows == [("row a", 1.0, 10.0, 100.0), ("row b", 2.0, 20.0, 200.0)]


def test_a_skipped_pytorch_column_is_skipped_in_every_row_never_zero():
    rows = numba_lab.merge([("a", "row a"), ("b", "row b")], {"a": 1.0, "b": 2.0}, {"a": 10.0},
                           Skipped("PyTorch is not installed"))
    assert [row[3] for row in rows] == [Skipped("PyTorch is not installed")] * 2
    assert rows[1][2] is None  # a row the C++ column lacks is '-', not skipped and not 0
    lines = numba_lab.table_lines("t", rows, "ms")
    assert lines[-1] == "  PyTorch column skipped: PyTorch is not installed"
    assert [line.split()[-3] for line in lines[3:5]] == ["skipped", "skipped"]  # the PyTorch cell
    assert not any(token in ("0.000", "-100.0%") for line in lines for token in line.split())


def test_a_column_naming_a_row_the_table_lacks_is_an_error():
    with pytest.raises(KeyError):
        numba_lab.merge([("a", "row a")], {"a": 1.0}, {"a": 1.0}, {"a": 1.0, "renamed": 2.0})


def test_a_column_that_is_neither_values_nor_skipped_is_an_error():
    with pytest.raises(TypeError):
        numba_lab.merge([("a", "row a")], {"a": 1.0}, None, {"a": 1.0})


@pytest.mark.parametrize("ours, cpp, shown", [(2.0, 1.0, "+100.0%"), (None, 1.0, "-"), (2.0, None, "-"),
                                              (Skipped("x"), 1.0, "-"), (2.0, Skipped("x"), "-"), (2.0, 0.0, "-")])
def test_the_difference_needs_both_figures(ours, cpp, shown):
    assert numba_lab.versus(ours, cpp).strip() == shown


def test_why_the_pytorch_column_is_skipped(monkeypatch):
    assert numba_lab.pytorch_reason(enabled=False) == "--no-pytorch given"
    monkeypatch.setattr(lab_chapters, "no_gpu_reason", lambda: "PyTorch is not installed")
    assert numba_lab.pytorch_reason() == "PyTorch is not installed"

    def broken():
        raise AttributeError("module 'numpy' has no attribute 'x'")

    monkeypatch.setattr(lab_chapters, "no_gpu_reason", broken)
    assert numba_lab.pytorch_reason().startswith("PyTorch could not be imported (AttributeError")
    monkeypatch.setattr(lab_chapters, "no_gpu_reason", lambda: None)
    assert numba_lab.pytorch_reason() is None


def test_a_skipped_pytorch_column_measures_nothing():
    def measure():
        raise AssertionError("measured although skipped")

    assert numba_lab.pytorch_column("no GPU", measure) == Skipped("no GPU")
    assert numba_lab.pytorch_column(None, lambda: {"a": 1.0}) == {"a": 1.0}


def test_the_cpp_column():
    picks = {"a": ("t", "row a", "median"), "b": ("t", "row b", "median")}
    assert numba_lab.cpp_column(report(("t", "row a", {"median": 3.0})), picks) == {"a": 3.0, "b": None}
    assert isinstance(numba_lab.cpp_column(None, picks), Skipped)
    assert numba_lab.cpp_column(report(), picks, enabled=False) == Skipped("--no-chapter given")


CH03_NUMBA = {"first": {"first_ms": 900.0, "later_ms": [0.05, 0.06, 0.07]},
              "gap": {"back to back": [0.050], "isolated": [0.060]},
              "brackets": {"start; copy; kernel; stop": [0.3], "copy; start; kernel; stop": [0.04],
                           "start; copy; stop": [0.25]}}
CH03_TORCH = {"first": {"first_ms": 7.0, "later_ms": [0.008], "wrong": 0}, "linear": (110.0, [0.05]),
              "gap": {"back to back": [0.022], "isolated": [0.023]},
              "brackets": {"start; copy; kernel; stop": [0.1], "copy; start; kernel; stop": [0.01],
                           "start; copy; stop": [0.09]}}
CH03_CPP = report(("launch_return", "the launch call returned after", {"ms": 0.006}),
                  ("launch_gap_n", "back to back", {"median": 8.0}), ("launch_gap_n", "isolated", {"median": 9.0}),
                  ("launch_gap_n", "blocked stream", {"median": 5.5}),
                  ("bracketing", "start; copy; kernel; stop", {"median": 88.0}),
                  ("bracketing", "copy; start; kernel; stop", {"median": 8.8}),
                  ("bracketing", "start; copy; stop", {"median": 81.0}))


def test_ch03_every_figure_lands_on_its_row_in_its_unit():
    one, two, three = (rows for _, rows, _ in numba_ch03_events.tables(1000, 3, CH03_NUMBA, CH03_TORCH, CH03_CPP,
                                                                       CH03_CPP))
    assert [row[1:] for row in one] == [(900.0, None, 7.0), (0.06, 0.006, 0.008), (None, None, 110.0),
                                        (None, None, 0.05)]
    assert [row[0] for row in two] == ["back to back", "isolated", "blocked stream"]
    assert [row[1:] for row in two] == [(pytest.approx(50.0), 8.0, pytest.approx(22.0)),
                                        (pytest.approx(60.0), 9.0, pytest.approx(23.0)), (None, 5.5, None)]
    assert [row[0] for row in three] == list(CH03_NUMBA["brackets"])
    assert [row[1:] for row in three] == [(pytest.approx(300.0), 88.0, pytest.approx(100.0)),
                                          (pytest.approx(40.0), 8.8, pytest.approx(10.0)),
                                          (pytest.approx(250.0), 81.0, pytest.approx(90.0))]


def test_ch03_without_pytorch_or_the_chapter_every_table_says_skipped():
    reason = Skipped("PyTorch is not installed")
    for _, rows, _ in numba_ch03_events.tables(1000, 3, CH03_NUMBA, reason, None, None, chapters=False):
        assert all(row[2] == Skipped("--no-chapter given") and row[3] == reason for row in rows)


def test_ch03_pytorch_brackets_name_the_same_rows_as_numba():
    import ch03_events

    assert tuple(CH03_NUMBA["brackets"]) == ch03_events.BRACKETS


def test_ch04_table_and_each_columns_speedup():
    cpp = numba_lab.cpp_column(report(("streams", "1 stream", {"median": 15.0}),
                                      ("streams", "10 streams", {"median": 9.0})),
                               {name: ("streams", name, "median") for name in ("1 stream", "10 streams")})
    rows, numba_speedup, torch_speedup = numba_ch04_streams.table(10, 5, {1: [16.0], 10: [8.0]}, cpp,
                                                                  {1: [18.0], 10: [6.0]})
    assert [row[1:] for row in rows] == [(16.0, 15.0, 18.0), (8.0, 9.0, 6.0)]
    assert (numba_speedup, torch_speedup) == (2.0, 3.0)
    rows, _, torch_speedup = numba_ch04_streams.table(10, 5, {1: [16.0], 10: [8.0]}, cpp, Skipped("no GPU"))
    assert torch_speedup is None and rows[0][3] == Skipped("no GPU")


def ch06_torch():
    """A fake ch06_pinned_memory.measure(): every (memory, non_blocking) with its own figures."""
    rows = {("pageable", False): ([30.0], [31.0]), ("pageable", True): ([32.0], [33.0]),
            ("pinned", False): ([5.0], [5.1]), ("pinned", True): ([0.08], [5.2])}
    return rows, 5.2, {"pinned": 5.3, "pageable": 40.0}


def test_ch06_pytorch_rows_match_numba_rows_through_the_cpp_row():
    numba_rows = {("pageable", False): ([37.0], [37.1]), ("pageable", True): ([38.0], [38.1]),
                  ("pinned", False): ([5.25], [5.28]), ("pinned", True): ([0.14], [5.0])}
    cpp = report(*[("calls", f"{memory} {call}", {"returned_ms": r, "done_ms": d}) for memory, call, r, d in
                   (("pageable", "cudaMemcpy", 32.9, 32.95), ("pageable", "cudaMemcpyAsync", 31.8, 31.9),
                    ("pinned", "cudaMemcpy", 4.9, 4.95), ("pinned", "cudaMemcpyAsync", 0.002, 4.88))],
                 ("cpu_freed", "pinned, cudaMemcpyAsync, CPU work, sync", {"median": 4.9}),
                 ("cpu_freed", "pageable, cudaMemcpyAsync, CPU work, sync", {"median": 37.5}))
    returned, done, overlap = numba_ch06_pinned_memory.tables(
        256, 5, (numba_rows, 5.0, {"pinned": 9.6, "pageable": 43.6}), cpp, ch06_torch())
    assert [row[1:] for row in returned[1]] == [(37.0, 32.9, 30.0), (38.0, 31.8, 32.0), (5.25, 4.9, 5.0),
                                                (0.14, 0.002, 0.08)]
    assert [row[1:] for row in done[1]] == [(37.1, 32.95, 31.0), (38.1, 31.9, 33.0), (5.28, 4.95, 5.1),
                                            (5.0, 4.88, 5.2)]
    assert "non_blocking=True" in returned[1][3][0] and "non_blocking=False" in returned[1][0][0]
    assert [row[1:] for row in overlap[1]] == [(9.6, 4.9, 5.3), (43.6, 37.5, 40.0)]
    assert "PyTorch: 5.20 ms" in overlap[0]


def test_ch06_without_pytorch_every_row_says_skipped():
    numba = ch06_torch()  # the same shape as Numba's measure(): (memory, on_stream) keys
    for _, rows, _ in numba_ch06_pinned_memory.tables(1, 1, numba, None, Skipped("no GPU"), chapters=False):
        assert all(row[2] == Skipped("--no-chapter given") and row[3] == Skipped("no GPU") for row in rows)
