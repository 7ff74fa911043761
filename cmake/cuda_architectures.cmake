# The CUDA architectures rune's own build compiles for when CMAKE_CUDA_ARCHITECTURES is not
# given: the compute capabilities of the GPUs nvidia-smi lists on this machine, or, where it
# lists none (a build machine, CI), every architecture CUDA 13 builds for. Each listed
# architecture gets its own machine code; the last one also carries PTX, which the driver
# compiles for GPUs newer than the toolkit (kernels/README.md, "Architectures").
set(RUNE_ALL_CUDA_ARCHITECTURES 75-real 80-real 86-real 89-real 90-real 100-real 120)

function(rune_local_gpu_architectures out)
  set(archs "")
  find_program(RUNE_NVIDIA_SMI nvidia-smi)
  if(RUNE_NVIDIA_SMI)
    execute_process(COMMAND ${RUNE_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE listed RESULT_VARIABLE status ERROR_QUIET)
    if(status EQUAL 0)
      string(REPLACE "\n" ";" listed "${listed}")
      foreach(cap IN LISTS listed)
        string(STRIP "${cap}" cap)
        string(REPLACE "." "" cap "${cap}")  # 9.0 -> 90
        if(cap MATCHES "^[0-9]+$")
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
