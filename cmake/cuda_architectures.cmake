# The CUDA architectures rune's own build compiles for when CMAKE_CUDA_ARCHITECTURES is not
# given: the compute capabilities of the GPUs nvidia-smi lists on this machine that the CUDA
# compiler builds for, or, where that leaves none (a build machine, CI, only GPUs too old),
# every architecture CUDA 13 builds for. Each listed architecture gets its own machine code;
# sm_100 and sm_120 also carry PTX, which the driver compiles for GPUs without machine code
# here (sm_103 and sm_110 from sm_100's, later ones from sm_120's; kernels/README.md,
# "Architectures").
set(RUNE_ALL_CUDA_ARCHITECTURES 75-real 80-real 86-real 89-real 90-real 100 120)

# The compute capabilities (as 90, 120) the CUDA compiler builds for: what
# `nvcc --list-gpu-arch` lists where the compiler is known, else CUDA 13's.
function(rune_buildable_cuda_architectures out)
  set(archs 75 80 86 87 88 89 90 100 103 110 120 121)
  if(CMAKE_CUDA_COMPILER)
    execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --list-gpu-arch OUTPUT_VARIABLE listed RESULT_VARIABLE status
                    ERROR_QUIET)
    if(status EQUAL 0)
      string(REGEX MATCHALL "compute_[0-9]+" listed "${listed}")
      list(TRANSFORM listed REPLACE "compute_" "")
      if(listed)
        set(archs ${listed})
      endif()
    endif()
  endif()
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()

# The compute capabilities of this machine's GPUs that the compiler builds for; empty where
# nvidia-smi is missing or lists none.
function(rune_local_gpu_architectures out)
  set(archs "")
  find_program(RUNE_NVIDIA_SMI nvidia-smi)
  if(RUNE_NVIDIA_SMI)
    execute_process(COMMAND ${RUNE_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE listed RESULT_VARIABLE status ERROR_QUIET)
    if(status EQUAL 0)
      rune_buildable_cuda_architectures(buildable)
      string(REPLACE "\n" ";" listed "${listed}")
      foreach(cap IN LISTS listed)
        string(STRIP "${cap}" cap)
        string(REPLACE "." "" cap "${cap}")  # 9.0 -> 90
        list(FIND buildable "${cap}" at)  # not IN_LIST: this file also runs under cmake -P
        if(at GREATER -1)
          list(APPEND archs ${cap})
        endif()
      endforeach()
      list(REMOVE_DUPLICATES archs)
    endif()
  endif()
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()

function(rune_default_cuda_architectures out)
  rune_local_gpu_architectures(local)
  if(local)
    set(${out} "${local}" PARENT_SCOPE)
  else()
    set(${out} "${RUNE_ALL_CUDA_ARCHITECTURES}" PARENT_SCOPE)
  endif()
endfunction()
