"""Chapter 01's kernels through the PyTorch extension: correct for any size, and
refusing tensors they cannot handle with a clear error."""
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="PyTorch sees no CUDA GPU")

VARIANTS = ["one thread per element", "grid-stride", "grid-stride float4"]
# Odd sizes: the last block part-filled, float4's scalar tail (n % 4 != 0), one element.
SIZES = [1, 3, 1000, 1000003, 1 << 20]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("n", SIZES)
def test_matches_torch_into_a_poisoned_output(lab_add, variant, n):
    generator = torch.Generator(device="cuda").manual_seed(n)
    a = torch.rand(n, device="cuda", generator=generator) * 200 - 100
    b = torch.rand(n, device="cuda", generator=generator) * 200 - 100
    c = torch.full_like(a, float("nan"))  # an element no thread writes stays NaN
    lab_add.add_out(a, b, c, variant)
    torch.cuda.synchronize()
    assert torch.equal(c, a + b)  # exact: one IEEE add per element, as in the chapter


def test_add_returns_a_new_tensor(lab_add):
    a = torch.rand(4097, device="cuda")
    b = torch.rand(4097, device="cuda")
    assert torch.equal(lab_add.add(a, b), a + b)


def test_runs_on_the_current_stream(lab_add):
    side = torch.cuda.Stream()
    a = torch.rand(1 << 20, device="cuda")
    b = torch.rand(1 << 20, device="cuda")
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        c = lab_add.add(a, b)
        expected = a + b
        same = torch.equal(c, expected)  # ordered after the add on the same stream
    assert same


def test_lists_the_chapters_variants(lab_add):
    assert lab_add.variants() == VARIANTS


@pytest.mark.parametrize("make, message", [
    (lambda: (torch.rand(8), torch.rand(8, device="cuda")), "must be a CUDA tensor"),
    (lambda: (torch.rand(8, device="cuda", dtype=torch.float64), torch.rand(8, device="cuda")), "must be float32"),
    (lambda: (torch.rand(8, 2, device="cuda").t(), torch.rand(2, 8, device="cuda")), "must be contiguous"),
    (lambda: (torch.rand(8, device="cuda"), torch.rand(9, device="cuda")), "same size"),
])
def test_refuses_what_the_kernel_cannot_handle(lab_add, make, message):
    a, b = make()
    with pytest.raises(RuntimeError, match=message):
        lab_add.add(a, b)


def test_refuses_an_unknown_variant(lab_add):
    a = torch.rand(8, device="cuda")
    with pytest.raises(RuntimeError, match="unknown variant"):
        lab_add.add(a, a, "warp-per-element")


def test_float4_refuses_a_misaligned_view(lab_add):
    a = torch.rand(9, device="cuda")[1:]  # contiguous, but 4 bytes past a 16-byte boundary
    b = torch.rand(8, device="cuda")
    with pytest.raises(ValueError, match="16-byte aligned"):
        lab_add.add(a, b, "grid-stride float4")
    assert torch.equal(lab_add.add(a, b, "grid-stride"), a + b)  # the scalar kernels take it


def test_a_chosen_grid_still_covers_every_element(lab_add):
    a = torch.rand(1000003, device="cuda")
    b = torch.rand(1000003, device="cuda")
    for variant in ["grid-stride", "grid-stride float4"]:
        c = torch.full_like(a, float("nan"))
        lab_add.add_out(a, b, c, variant, 128, 3)  # 3 blocks: each thread loops many times
        assert torch.equal(c, a + b), variant
    with pytest.raises(RuntimeError, match="only for the grid-stride kernels"):
        lab_add.add_out(a, b, c, "one thread per element", 256, 3)
