# Runs the compiler on one source that must NOT compile, and checks that it fails the way
# dsl/README.md ("Errors") promises: with the expected static_assert message as its only error
# (so nothing surfaces from inside the library, and no cascade reaches the user's own lines).
#   cmake -DCOMPILER=... -DINCLUDE=... -DSOURCE=... -DEXPECT=<regex> -P check_compile_fail.cmake
#   (-DDEFINES=-DRUNE_FORCE_AND_USE for the forced-and-used variant, -DEXTRA_INCLUDE=<dir> for
#   one more include directory, such as MPI's)
set(extra)
if(EXTRA_INCLUDE)
  set(extra -I${EXTRA_INCLUDE})
endif()
execute_process(COMMAND ${COMPILER} -std=c++20 -fsyntax-only -fopenmp -I${INCLUDE} ${extra} ${DEFINES} ${SOURCE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but it must not")
endif()
# `static assertion failed: msg` (gcc), `static assertion failed due to requirement '...': msg` (clang).
set(wanted "static.assert[^\n]*${EXPECT}")
if(NOT out MATCHES "${wanted}")
  message(FATAL_ERROR "${SOURCE} failed to compile, but not with a static_assert matching\n  ${EXPECT}\n"
                      "The compiler said:\n${out}")
endif()
string(REGEX MATCH "error: [^\n]*" first "${out}")
if(NOT first MATCHES "${wanted}")
  message(FATAL_ERROR "${SOURCE}: the first error is not the expected static_assert:\n  ${first}\n"
                      "The compiler said:\n${out}")
endif()
# One mistake, one diagnostic: no second error anywhere, the user's own lines included.
string(REGEX MATCHALL "error: " errors "${out}")
list(LENGTH errors nerrors)
if(NOT nerrors EQUAL 1)
  message(FATAL_ERROR "${SOURCE} ${DEFINES}: ${nerrors} errors, where the static_assert should be the only one:\n${out}")
endif()
message(STATUS "${SOURCE} ${DEFINES}: fails to compile as expected: ${first}")
