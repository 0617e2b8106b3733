"""Builds chapter 01's `c = a + b` as a PyTorch extension and loads it.

    import add_extension
    lab_add = add_extension.load()          # compiles on first use (about a minute), then cached
    c = lab_add.add(a, b)                   # a, b: contiguous float32 CUDA tensors of one size
    lab_add.add_out(a, b, c, "grid-stride") # into an existing c, with another of the chapter's kernels

The extension is compiled by torch.utils.cpp_extension.load() (JIT): it runs nvcc
and the host compiler through ninja, so ninja must be installed (`pip install
ninja`), and nvcc's CUDA major version must match the one PyTorch was built with.
Its sources are chapter 01's kernels as they are (chapters/01_kernel_launch/add_kernels.cu,
the library ch01_kernels, and common/lesson/verify.cpp, the one common/ file it calls) plus one
binding file, add_extension.cpp.

unavailable_reason() says, without building anything, why the extension cannot be
built here (no torch, no GPU, no ninja, no nvcc, CUDA versions that differ), or None.
"""
import os
import pathlib
import re
import shutil
import subprocess

REPO = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_BUILD_DIR = REPO / "build" / "torch-ext"

# Chapter 01's kernels and launchers (library ch01_kernels) and the one common/ source
# they call (random inputs and the CPU comparison): the kernels are the chapter's own,
# and none of the chapter's experiments or timing code comes along.
SOURCES = [
    REPO / "python" / "add_extension.cpp",
    REPO / "chapters" / "01_kernel_launch" / "add_kernels.cu",
    REPO / "common" / "lesson" / "verify.cpp",
]
INCLUDE_DIRS = [REPO / "common" / "lesson", REPO / "common" / "harness", REPO / "chapters" / "01_kernel_launch"]


def _nvcc_version(cuda_home):
    nvcc = pathlib.Path(cuda_home) / "bin" / "nvcc"
    try:
        text = subprocess.run([str(nvcc), "--version"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    match = re.search(r"release (\d+)\.(\d+)", text)
    return (int(match.group(1)), int(match.group(2))) if match else None


def unavailable_reason():
    """Why the extension cannot be built on this machine, or None if it can be tried."""
    try:
        import torch
        from torch.utils import cpp_extension
    except ImportError:
        return "PyTorch is not installed"
    if not torch.cuda.is_available():
        return "PyTorch sees no CUDA GPU (torch.cuda.is_available() is False)"
    if torch.version.cuda is None:
        return "this PyTorch was built without CUDA"
    if shutil.which("ninja") is None:
        try:
            cpp_extension.verify_ninja_availability()
        except RuntimeError:
            return "ninja is not installed: torch.utils.cpp_extension.load() needs it (pip install ninja)"
    cuda_home = cpp_extension.CUDA_HOME
    if cuda_home is None:
        return "no CUDA toolkit found (set CUDA_HOME, or put nvcc on PATH)"
    nvcc = _nvcc_version(cuda_home)
    if nvcc is None:
        return f"cannot run nvcc from {cuda_home}"
    torch_major = int(torch.version.cuda.split(".")[0])
    if nvcc[0] != torch_major:
        # Code from one major CUDA version linked into a PyTorch built with another
        # (cpp_extension's own check runs in BuildExtension, not on load()'s path).
        return (f"nvcc is CUDA {nvcc[0]}.{nvcc[1]} but PyTorch was built with CUDA {torch.version.cuda}; "
                f"the major versions must match")
    return None


def load(build_dir=None, verbose=False):
    """Compiles (if its sources changed) and imports the extension; returns the module.

    build_dir: where ninja builds it (default build/torch-ext, or $LAB_TORCH_EXT_DIR).
    Raises RuntimeError with unavailable_reason() when it cannot be built here.
    """
    reason = unavailable_reason()
    if reason is not None:
        raise RuntimeError(f"cannot build chapter 01's extension: {reason}")
    from torch.utils import cpp_extension

    build_dir = pathlib.Path(build_dir or os.environ.get("LAB_TORCH_EXT_DIR") or DEFAULT_BUILD_DIR)
    build_dir.mkdir(parents=True, exist_ok=True)
    return cpp_extension.load(
        name="lab_add",
        sources=[str(s) for s in SOURCES],
        extra_include_paths=[str(d) for d in INCLUDE_DIRS],
        # -lineinfo as in the chapter's build; the C++ standard is the one PyTorch chooses.
        extra_cflags=["-O3"],
        extra_cuda_cflags=["-O3", "-lineinfo"],
        build_directory=str(build_dir),
        verbose=verbose,
    )


if __name__ == "__main__":
    why = unavailable_reason()
    if why:
        print(f"skipped: {why}")
        raise SystemExit(77)
    module = load(verbose=True)
    print(f"built {module.__file__}; variants: {', '.join(module.variants())}")
