// The PyTorch binding of chapter 01's kernels: `c = a + b` with the chapter's own
// kernels and launch code (chapters/01_kernel_launch/add_kernels.cu, compiled into
// this extension as it is, not copied). Built by python/add_extension.py with
// torch.utils.cpp_extension.load(); Python calls lab_add.add(a, b, variant).
//
// What this file adds is only what a PyTorch op must do itself: check its
// tensors (a kernel given a CPU pointer or a strided view would read the wrong
// memory), allocate the output, and launch on PyTorch's current stream so the
// add is ordered with the tensor work around it.
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/extension.h>

#include <string>

#include "add_kernels.cuh"

namespace {

ch01::AddVariant variant_from_name(const std::string& name) {
  for (ch01::AddVariant variant : ch01::kAllVariants) {
    if (name == ch01::variant_name(variant)) return variant;
  }
  TORCH_CHECK(false, "lab_add: unknown variant '", name,
              "' (one of: 'one thread per element', 'grid-stride', 'grid-stride float4')");
  return ch01::AddVariant::grid_stride;  // not reached: TORCH_CHECK(false, ...) throws
}

void check_input(const torch::Tensor& t, const char* name) {
  TORCH_CHECK(t.is_cuda(), "lab_add: ", name, " must be a CUDA tensor, got one on ", t.device());
  TORCH_CHECK(t.scalar_type() == torch::kFloat32, "lab_add: ", name, " must be float32, got ", t.scalar_type());
  TORCH_CHECK(t.is_contiguous(), "lab_add: ", name, " must be contiguous (call .contiguous() first)");
}

// "[8, 2]": a tensor's shape for a message, spelled out here (streaming at::IntArrayRef
// into TORCH_CHECK crashed the process in the H100 run of 2026-11-22).
std::string shape(const torch::Tensor& t) {
  std::string text = "[";
  for (std::int64_t d = 0; d < t.dim(); ++d) text += (d ? ", " : "") + std::to_string(t.size(d));
  return text + "]";
}

// The launch configuration the chapter would choose on this device: the
// occupancy-sized grid of the grid-stride variants needs the SM count.
lab::DeviceInfo lab_device_info(const torch::Tensor& t) {
  const cudaDeviceProp* props = at::cuda::getDeviceProperties(t.get_device());
  lab::DeviceInfo device;
  device.ordinal = t.get_device();
  device.sm_count = props->multiProcessorCount;
  for (int i = 0; i < 3; ++i) device.max_grid_dim[i] = props->maxGridSize[i];
  return device;
}

}  // namespace

// c = a + b into a given output (no allocation: what a timing loop calls).
// grid > 0 replaces the chapter's grid for the grid-stride kernels (their loop covers
// any grid): what python/ch01_add_profile.py varies to compare with torch.add.
void add_out(const torch::Tensor& a, const torch::Tensor& b, torch::Tensor& c, const std::string& variant_name,
             int64_t block, int64_t grid) {
  check_input(a, "a");
  check_input(b, "b");
  check_input(c, "c");
  TORCH_CHECK(a.sizes() == b.sizes() && a.sizes() == c.sizes(), "lab_add: a, b and c must have the same size, got ",
              shape(a), ", ", shape(b), " and ", shape(c));
  TORCH_CHECK(a.device() == b.device() && a.device() == c.device(), "lab_add: a, b and c must be on one device");
  const c10::cuda::CUDAGuard guard(a.device());
  const ch01::AddVariant variant = variant_from_name(variant_name);
  const std::int64_t n = a.numel();
  if (n == 0) return;
  ch01::LaunchConfig config = ch01::choose_config(variant, n, static_cast<int>(block), lab_device_info(a));
  if (grid > 0) {
    TORCH_CHECK(variant != ch01::AddVariant::one_thread_per_element,
                "lab_add: grid can be chosen only for the grid-stride kernels");
    config.grid = grid;
  }
  // The chapter's launch, on the stream PyTorch is using now (torch.cuda.stream(...) changes it).
  ch01::launch_add(variant, a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), n, config,
                   at::cuda::getCurrentCUDAStream());
}

// c = a + b into a new tensor.
torch::Tensor add(const torch::Tensor& a, const torch::Tensor& b, const std::string& variant, int64_t block) {
  check_input(a, "a");
  torch::Tensor c = torch::empty_like(a);
  add_out(a, b, c, variant, block, 0);
  return c;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.doc() = "Chapter 01's c = a + b (chapters/01_kernel_launch/add_kernels.cu) as a PyTorch op";
  m.def("add", &add, "c = a + b with chapter 01's kernel", py::arg("a"), py::arg("b"),
        py::arg("variant") = "grid-stride float4", py::arg("block") = 256);
  m.def("add_out", &add_out, "c = a + b into c, with chapter 01's kernel", py::arg("a"), py::arg("b"), py::arg("c"),
        py::arg("variant") = "grid-stride float4", py::arg("block") = 256, py::arg("grid") = 0);
  m.def(
      "chapter_grid",
      [](const torch::Tensor& a, const std::string& variant, int64_t block) {
        check_input(a, "a");
        return ch01::choose_config(variant_from_name(variant), a.numel(), static_cast<int>(block), lab_device_info(a))
            .grid;
      },
      "the grid chapter 01 chooses for a's size", py::arg("a"), py::arg("variant") = "grid-stride float4",
      py::arg("block") = 256);
  m.def("variants", [] {
    std::vector<std::string> names;
    for (ch01::AddVariant variant : ch01::kAllVariants) names.emplace_back(ch01::variant_name(variant));
    return names;
  });
}
