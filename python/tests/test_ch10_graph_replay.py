"""python/ch10_graph_replay.py: the chain's answer each way, the check itself, the graph's
large effect against ops launched one by one, the held stream, the output and the exit codes
(ratios and counts, never exact timings)."""
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="PyTorch sees no CUDA GPU")

import ch10_graph_replay as script  # noqa: E402  (after the skip: it uses torch)
import lab_chapters  # noqa: E402


@pytest.fixture(scope="module")
def default_run():
    """The script's default chain (100 ops on 65536 floats), 5 samples per way."""
    return script.measure(65536, 100, samples=5)


def test_ch10_every_way_gives_the_cpus_answer():
    results = script.measure(4096, 10, samples=3)
    for way in script.WAYS:
        assert results[way]["wrong"] == 0, way
        assert len(results[way]["per_kernel_us"]) == 3 and min(results[way]["per_kernel_us"]) > 0, way


def test_ch10_the_check_sees_a_missing_kernel_and_the_poison():
    a, b = torch.rand(4096), torch.rand(4096)
    expected = script.cpu_chain(a, b, 10)
    assert script.count_wrong(script.cpu_chain(a, b, 9), expected) > 0  # one addition short
    chain = script.Chain(4096, 10)
    chain.poison()
    torch.cuda.synchronize()
    assert chain.wrong() == 4096  # NaN everywhere: no kernel ran
    chain.queue()
    torch.cuda.synchronize()
    assert chain.wrong() == 0


def test_ch10_graph_replay_costs_less_per_kernel_than_ops_as_launched(default_run):
    median = lab_chapters.median
    launched = median(default_run["stream, as launched"]["per_kernel_us"])
    graph = median(default_run["graph replay"]["per_kernel_us"])
    assert graph < launched, (graph, launched)
    assert all(default_run[way]["wrong"] == 0 for way in script.WAYS)


def test_ch10_the_spin_held_the_stream_while_the_chain_was_queued(default_run):
    held = default_run["stream, held"]
    assert held is not None and held["not_held"] <= 2  # of 5 samples
    # Queued ahead, the kernels run without waiting for the host: never slower than as launched.
    median = lab_chapters.median
    assert median(held["per_kernel_us"]) <= 1.1 * median(default_run["stream, as launched"]["per_kernel_us"])


def test_ch10_main_prints_each_way_and_exits_0(capsys):
    assert script.main(["--n", "4096", "--kernels", "10", "--samples", "3", "--no-profile"]) == 0
    out = capsys.readouterr().out
    for way in script.WAYS:
        assert f"  {way} " in out, way
        assert f"{way:22s} wrong values in 3 samples x 4096: 0" in out, way
    assert "graph replay:" in out  # the verdict


@pytest.mark.parametrize("argv", [["--kernels", "1"], ["--samples", "0"], ["--n", "3x"], ["--n", "0"]])
def test_ch10_bad_command_line_exits_2(argv):
    with pytest.raises(SystemExit) as exit_info:
        script.main(argv)
    assert exit_info.value.code == 2


def test_ch10_verdict_follows_the_numbers():
    lines = script.verdict(launched_us=5.0, held_us=3.0, graph_us=2.0)
    assert "2.50 times less per kernel" in lines[0]
    assert "1.00 us less per kernel" in lines[1]
    lines = script.verdict(launched_us=2.0, held_us=1.5, graph_us=3.0)
    assert "no less per kernel" in lines[0]
    assert "1.50 us more per kernel" in lines[1]
    assert len(script.verdict(launched_us=5.0, held_us=None, graph_us=2.0)) == 1
