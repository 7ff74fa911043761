# cmake -P cmake/print_cuda_architectures.cmake: prints every architecture rune builds for
# where no GPU is seen, and the default of this machine (cmake/cuda_architectures.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/cuda_architectures.cmake)
rune_default_cuda_architectures(here)
message("all: ${RUNE_ALL_CUDA_ARCHITECTURES}")
message("default here: ${here}")
