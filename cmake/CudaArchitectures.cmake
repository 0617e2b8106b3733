# Chooses the GPU architectures to compile for, *before* project() enables CUDA.
#
# The user's choice always wins: -DCMAKE_CUDA_ARCHITECTURES=... on the command line
# or the CUDAARCHS environment variable (CMake reads it when CUDA is enabled).
# Only when neither is set do we pick a default:
#   * a GPU is visible (nvidia-smi lists one): "native", i.e. exactly that GPU;
#   * no GPU (CI, a laptop without NVIDIA hardware): a fixed list, so the code is
#     still compiled for real and a later copy of the binary runs on common GPUs.
#     75 = Turing (the oldest CUDA 13 supports), 80 = Ampere (also runs on 86/89),
#     90 = Hopper (the H100 this tutorial was measured on) plus its PTX, which the
#     driver can JIT-compile for newer GPUs.
if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
  return()
endif()

set(_lab_gpu_visible FALSE)
find_program(LAB_NVIDIA_SMI nvidia-smi)
if(LAB_NVIDIA_SMI)
  execute_process(
    COMMAND "${LAB_NVIDIA_SMI}" -L
    RESULT_VARIABLE _lab_smi_result
    OUTPUT_VARIABLE _lab_smi_output
    ERROR_QUIET
    TIMEOUT 30)
  if(_lab_smi_result EQUAL 0 AND _lab_smi_output MATCHES "GPU [0-9]+:")
    set(_lab_gpu_visible TRUE)
  endif()
endif()

if(_lab_gpu_visible)
  set(_lab_default_archs native)
else()
  set(_lab_default_archs "75-real;80-real;90")
endif()
set(CMAKE_CUDA_ARCHITECTURES "${_lab_default_archs}" CACHE STRING
    "GPU architectures to build for (default chosen by cmake/CudaArchitectures.cmake)")
message(STATUS "CUDA architectures: ${CMAKE_CUDA_ARCHITECTURES} "
               "(GPU visible at configure time: ${_lab_gpu_visible})")
