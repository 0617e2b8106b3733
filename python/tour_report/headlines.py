"""The headline numbers of each chapter: the rows the front page quotes (README.md, "What two GPUs
showed, one number a chapter"), found by table_id and row name, never by a title. A row a run lacks
(a section it skipped, other options) shows as "not in this run"."""

# chapter: [(what it is, table_id, row name, field, unit, decimals)]
HEADLINES = {
    "ch01_kernel_launch": [
        ("device-to-device copy", "variants", "device-to-device copy", "bandwidth_gbps", "GB/s", 0),
        ("grid-stride float4", "variants", "grid-stride float4", "bandwidth_gbps", "GB/s", 0),
        ("grid-stride float4, of the copy", "variants", "grid-stride float4", "percent_of_copy", "%", 1)],
    "ch02_sync_pitfalls": [
        ("host timer around a 10 ms kernel, no sync", "host_timer_long_kernel", "no sync", "median", "ms", 3),
        ("the same, sync before and after", "host_timer_long_kernel", "sync before and after", "median", "ms", 3)],
    "ch03_events": [
        ("events on the work's stream", "wrong_stream", "events on the work's stream", "median", "µs", 2),
        ("events on another stream", "wrong_stream", "events on another stream", "median", "µs", 2)],
    "ch04_streams": [
        ("ten arrays on 1 stream", "streams", "1 stream", "median", "ms", 3),
        ("ten arrays on 10 streams", "streams", "10 streams", "median", "ms", 3),
        ("speed-up of 10 streams", "streams", "10 streams", "speedup", "x", 2)],
    "ch05_overlap": [
        ("heavy kernel, sequential, 1 chunk", "schedules", "heavy sequential 1 chunk", "median", "ms", 3),
        ("heavy kernel, V2, 32 chunks", "schedules", "heavy V2 32 chunks", "median", "ms", 3),
        ("the bound from the copies alone", "schedules", "heavy V2 32 chunks", "bound_ms", "ms", 3)],
    "ch06_pinned_memory": [
        ("256 MiB to the GPU from pageable memory", "sweep", "256MiB", "pageable_h2d_gbps", "GB/s", 1),
        ("256 MiB to the GPU from pinned memory, alone", "sweep", "256MiB", "pinned_h2d_isolated_gbps", "GB/s", 1)],
    "ch07_cache_and_clock": [
        ("data in L2, warm", "working_set_small", "nothing, blocked stream", "median_us", "µs", 2),
        ("after a write flush", "working_set_small", "write flush, blocked stream", "median_us", "µs", 2)],
    "ch08_launch_and_graphs": [
        ("100 kernels, one by one, each", "graphs", "100", "stream_per_kernel_us", "µs", 2),
        ("100 kernels as one graph, each", "graphs", "100", "graph_per_kernel_us", "µs", 2),
        ("stream over graph", "graphs", "100", "stream_over_graph", "x", 2)],
    "ch09_multi_gpu": [
        ("chunked pipeline on 1 GPU", "pipeline", "1 GPU", "median", "ms", 3),
        ("chunked pipeline on 2 GPUs", "pipeline", "2 GPUs", "median", "ms", 3)],
    "ch10_dependent_launch": [
        ("chain of small kernels, plain, a kernel", "pdl_stream", "plain", "median", "µs", 2),
        ("the same with PDL", "pdl_stream", "pdl", "median", "µs", 2),
        ("Jacobi sweep, host loop, an iteration", "jacobi", "host_loop", "per_iteration_us", "µs", 2),
        ("Jacobi sweep, WHILE node, an iteration", "jacobi", "while_node", "per_iteration_us", "µs", 2)],
    "ch11_who_gets_the_gpu": [
        ("urgent kernel's start, equal priority", "priority_urgent", "equal_priority", "median", "µs", 1),
        ("urgent kernel's start, greatest priority", "priority_urgent", "greatest_priority", "median", "µs", 1),
        ("urgent start in a green context", "green_contexts", "urgent_start_green", "median", "µs", 2),
        ("urgent start sharing every SM", "green_contexts", "urgent_start_shared", "median", "µs", 2)],
    "ch12_async_copies": [
        ("1 block/SM, synchronous staging", "versions", "sync_staged @ 1/SM full, w4", "gbps", "GB/s", 0),
        ("1 block/SM, 2-stage TMA", "versions", "tma x2 @ 1/SM full, w4", "gbps", "GB/s", 0),
        ("8 blocks/SM, synchronous staging", "versions", "sync_staged @ 8/SM, w4", "gbps", "GB/s", 0)],
    "ch13_trustworthy_timer": [
        ("short kernel in L2: CUPTI", "reference", "short kernel, inputs in L2", "cupti_us", "µs", 2),
        ("the same: a naive event pair (median)", "naive", "short kernel, inputs in L2", "naive_median_us", "µs", 2),
        ("the same: the reference harness", "reference", "short kernel, inputs in L2", "reading_us", "µs", 2),
        ("per kernel in a graph of K", "sequence", "graph of K / K", "median", "µs", 2)],
}


def headline_cells(chapter, spec):
    """The number @spec names in @chapter (a runs.Chapter or None), formatted, or why there is none."""
    _, table_id, row_name, field, unit, decimals = spec
    if chapter is None:
        return "not run"
    row = chapter.row(table_id, row_name)
    value = None if row is None else row.get(field)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return "not in this run"
    return f"{value:,.{decimals}f} {unit}"
