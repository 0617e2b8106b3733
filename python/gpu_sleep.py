"""A GPU kernel that runs for a given time: torch.cuda._sleep(cycles) spins on the
GPU's clock; cycles_per_ms() measures how many cycles make a millisecond here."""
import functools


@functools.lru_cache(maxsize=None)
def cycles_per_ms():
    """Times torch.cuda._sleep of a known number of cycles with events (after a warm-up)."""
    import torch

    cycles = 20_000_000
    torch.cuda._sleep(1000)  # warm-up: the first launch loads the kernel
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    torch.cuda._sleep(cycles)
    end.record()
    end.synchronize()
    return cycles / start.elapsed_time(end)


def sleep_ms(ms):
    """Queues a kernel that keeps the GPU busy about @ms milliseconds on the current stream."""
    import torch

    torch.cuda._sleep(int(ms * cycles_per_ms()))
