# The host pass of a rune program parses no CUB header, its device pass does (Note [Agents
# in the device pass], kernels/agent/device_pass.cuh): nvcc keeps each pass's preprocessed
# source (.cpp4.ii for the host, .cpp1.ii for the device), and the check reads both; the
# device pass's CUB keeps it from passing vacuously. With -DHOST_PARSES_CUB=ON (and
# -DDEFINES=-DRUNE_HOST_PASS_PARSES_AGENTS), the program must compile with the agents parsed
# by both passes, as under a CCCL other than the one the host pass's declarations are for.
#   cmake -DNVCC=nvcc -DINCLUDE=dsl -DSOURCE=program.cu -DWORK=dir [-DDEFINES=...]
#         [-DHOST_PARSES_CUB=ON] -P check_host_pass.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${NVCC}" -std=c++20 -arch=sm_90 --extended-lambda "-I${INCLUDE}" ${DEFINES} -c "${SOURCE}"
                        -o "${WORK}/program.o" --keep --keep-dir "${WORK}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc failed on ${SOURCE}:\n${out}${err}")
endif()
file(GLOB host "${WORK}/*.cpp4.ii")
file(GLOB device "${WORK}/*.cpp1.ii")
if(NOT host OR NOT device)
  message(FATAL_ERROR "nvcc kept no preprocessed sources in ${WORK}")
endif()
file(STRINGS "${host}" host_cub REGEX "cccl/cub/")
file(STRINGS "${device}" device_cub REGEX "cccl/cub/")
if(HOST_PARSES_CUB)
  if(NOT host_cub)
    message(FATAL_ERROR "with ${DEFINES}, the host pass of ${SOURCE} parses no CUB header")
  endif()
  message(STATUS "host and device pass both with CUB (${DEFINES}): ${SOURCE}")
  return()
endif()
if(host_cub)
  list(GET host_cub 0 first)
  message(FATAL_ERROR "the host pass of ${SOURCE} parses CUB: ${first}")
endif()
if(NOT device_cub)
  message(FATAL_ERROR "the device pass of ${SOURCE} parses no CUB header: the check would pass vacuously")
endif()
message(STATUS "host pass without CUB, device pass with it: ${SOURCE}")
