# A program that includes rune compiles with nvcc and the flags given without one warning.
#   cmake -DNVCC=nvcc -DINCLUDE=dsl -DSOURCE=program.cu -DWORK=dir -DFLAGS=... -P check_no_warnings.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
execute_process(COMMAND "${NVCC}" -std=c++20 -arch=sm_90 --extended-lambda "-I${INCLUDE}" ${flags} -c "${SOURCE}"
                        -o "${WORK}/program.o"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc ${FLAGS} failed on ${SOURCE}:\n${out}${err}")
endif()
if("${out}${err}" MATCHES "warning")
  message(FATAL_ERROR "nvcc ${FLAGS} warns on ${SOURCE}:\n${out}${err}")
endif()
message(STATUS "no warning with nvcc ${FLAGS}: ${SOURCE}")
