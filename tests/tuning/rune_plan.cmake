# ctest entries for rune-plan (label cpu), included from kernels/tuning/CMakeLists.txt: the
# thesis' values and Table I through the command line, and bad arguments failing with the
# usage and exit status 2. The doctest cases of this folder also run on their own, as
# tuning_models, so that `ctest -R tuning` covers the models.

add_test(NAME tuning_models COMMAND rune_cpu_tests --test-suite=tuning)
set_tests_properties(tuning_models PROPERTIES LABELS cpu)

# rune_plan_case(<name> <regex the output must match> <argument>...)
function(rune_plan_case name regex)
  add_test(NAME plan_${name} COMMAND rune-plan ${ARGN})
  set_tests_properties(plan_${name} PROPERTIES LABELS cpu PASS_REGULAR_EXPRESSION "${regex}")
endfunction()

# The thesis (section 5.4): int8/16/32/64 give 12/12/9/4 on the GTX 780 Ti, 12/12/12/6 on the
# RTX 2080 Ti; radix sort's 4-tuple of int64 gives 2 on the RTX 2080 Ti (section 5.3).
foreach(case "gtx780ti;i8;12" "gtx780ti;i16;12" "gtx780ti;i32;9" "gtx780ti;i64;4"
             "rtx2080ti;i8;12" "rtx2080ti;i16;12" "rtx2080ti;i32;12" "rtx2080ti;i64;6"
             "rtx2080ti;i64,i64,i64,i64;2" "gtx780ti;i64,i64,i64,i64;2")
  list(GET case 0 device)
  list(GET case 1 types)
  list(GET case 2 m)
  string(REPLACE "," "_" tag "${types}")
  rune_plan_case(scan_thesis_${device}_${tag} " m=${m}\n" scan --device ${device} --types ${types} --model thesis)
endforeach()
# Without --model, the named devices without a measured table fall back to the thesis' model
# and say so; the H100 reports the measured sm_90 policy.
rune_plan_case(scan_default_rtx2080ti_i32 "model=thesis types=i32 m=12\n.*no measured table" scan --device rtx2080ti --types i32)
rune_plan_case(scan_default_h100_i32 "model=rune types=i32 m=[0-9]+\n.*scan_policy_sm90" scan --device h100 --types i32)

# Table I (RTX 2080 Ti, N = 50e6): shared and global (M, S) for each H, class and RF. HDW and
# CAS are 4-byte ints, XCG is argmax over (int, int), 8 bytes.
set(shared_H 31 127 505 2048 6144 12288 24576 49152)
set(shared_hdw_cas "396,1" "96,1" "24,1" "6,1" "2,1" "1,1" "1,2" "1,4")
set(shared_xcg "132,1" "32,1" "8,1" "2,1" "1,2" "1,3" "1,6" "1,12")
set(global_H 12288 24576 49152 196608 393216 786432 1572864)
set(global_hdw_1 "23,1" "11,1" "5,1" "1,1" "1,1" "1,2" "1,3")
set(global_hdw_63 "69,1" "34,1" "17,1" "4,1" "2,1" "1,1" "1,1")
set(global_cas_1 "46,1" "23,1" "11,1" "2,1" "1,1" "1,2" "1,3")
set(global_cas_63 "138,1" "69,1" "34,1" "8,1" "4,1" "2,1" "1,1")
set(global_xcg_1 "15,1" "7,1" "3,1" "1,1" "1,2" "1,3" "1,5")
set(global_xcg_63 "69,1" "34,1" "17,1" "4,1" "2,1" "1,1" "1,1")

function(rune_plan_ms_regex out which pair)
  string(REPLACE "," ";" ms "${pair}")
  list(GET ms 0 M)
  list(GET ms 1 S)
  set(${out} "\n${which} M=${M} S=${S}\n" PARENT_SCOPE)
endfunction()

foreach(cls hdw cas xcg)
  if(cls STREQUAL "xcg")
    set(bytes 8)
    set(shared_row ${shared_xcg})
  else()
    set(bytes 4)
    set(shared_row ${shared_hdw_cas})
  endif()
  foreach(i RANGE 7)
    list(GET shared_H ${i} H)
    list(GET shared_row ${i} pair)
    rune_plan_ms_regex(regex shared ${pair})
    rune_plan_case(hist_table1_shared_${cls}_H${H} "${regex}"
                   hist --device rtx2080ti --N 50000000 --H ${H} --RF 1 --class ${cls} --elem-bytes ${bytes})
  endforeach()
  foreach(rf 1 63)
    foreach(i RANGE 6)
      list(GET global_H ${i} H)
      list(GET global_${cls}_${rf} ${i} pair)
      rune_plan_ms_regex(regex global ${pair})
      rune_plan_case(hist_table1_global_${cls}_RF${rf}_H${H} "${regex}"
                     hist --device rtx2080ti --N 50000000 --H ${H} --RF ${rf} --class ${cls} --elem-bytes ${bytes})
    endforeach()
  endforeach()
endforeach()
# Which one runs: the paper's rule (shared when S <= 3/4/6 for HDW/CAS/XCG).
rune_plan_case(hist_run_shared_cas_H49152 "\nrun=shared \\(shared S=4 <= 4 for cas\\)"
               hist --device rtx2080ti --N 5e7 --H 49152 --RF 1 --class cas --elem-bytes 4)
rune_plan_case(hist_run_global_hdw_H49152 "\nrun=global \\(shared S=4 > 3 for hdw\\)"
               hist --device rtx2080ti --N 5e7 --H 49152 --RF 1 --class hdw --elem-bytes 4)
rune_plan_case(hist_h100_runs "shared M=[0-9]+ S=[0-9]+\nglobal M=[0-9]+ S=[0-9]+\nrun=(shared|global)"
               hist --device h100 --N 50000000 --H 1572864 --RF 63 --class xcg --elem-bytes 8)
# gromacs on the H100: two shared passes would fit, but a block has too few updates per bin
# (Note [Passes and partitions that cannot pay]).
rune_plan_case(hist_h100_gromacs_global
               "\nglobal M=1 S=1\nrun=global \\(shared S=2: too few updates per bin and block for more than one pass\\)"
               hist --device h100 --N 8280960 --H 69534 --RF 1 --class hdw --elem-bytes 4)
# gromacs at eight times its pairs: two shared passes would pay for a body that loads its
# elements, and a body that computes them (--loads 0) goes to global memory.
rune_plan_case(hist_h100_loaded_passes "\nrun=shared \\(shared S=2 <= 4 for hdw\\)"
               hist --device h100 --N 66247680 --H 69534 --RF 1 --class hdw --elem-bytes 4)
rune_plan_case(hist_h100_computed_global
               "loads=0\n.*\nrun=global \\(shared S=2, but the body computes its elements: no passes or partitions redo them\\)"
               hist --device h100 --N 66247680 --H 69534 --RF 1 --class hdw --elem-bytes 4 --loads 0)
# On the H100, CAS beyond one shared pass partitions its updates (Note [Partitioned histograms]).
rune_plan_case(hist_h100_partitioned_cas
               "\nrun=partitioned \\(shared S=7 > 1 for cas; P=7 <= 64 partitions\\)\npartitioned P=7 H_chk=56174\n"
               hist --device h100 --N 50000000 --H 393216 --RF 1 --class cas --elem-bytes 4)

# Bad arguments: one line naming the problem and the usage, exit status 2.
# The arguments travel to the script joined by '|' (a ';' would split them on the way).
function(rune_plan_bad name problem)
  string(JOIN "|" args ${ARGN})
  add_test(NAME plan_bad_${name}
           COMMAND ${CMAKE_COMMAND} -DPLAN=$<TARGET_FILE:rune-plan> "-DARGS=${args}" "-DPROBLEM=${problem}"
                   -P ${PROJECT_SOURCE_DIR}/tests/tuning/expect_usage_error.cmake)
  set_tests_properties(plan_bad_${name} PROPERTIES LABELS cpu)
endfunction()
rune_plan_bad(no_command "no command")
rune_plan_bad(unknown_command "unknown command 'histogram'" histogram)
rune_plan_bad(scan_unknown_device "unknown --device 'gtx1080'" scan --device gtx1080 --types i32)
rune_plan_bad(scan_unknown_type "unknown type 'i128'" scan --device h100 --types i32,i128)
rune_plan_bad(scan_missing_types "missing --types" scan --device h100)
rune_plan_bad(scan_unknown_model "unknown --model 'futhark'" scan --device h100 --types i32 --model futhark)
rune_plan_bad(hist_unknown_class "unknown --class 'lock'" hist --device rtx2080ti --N 100 --H 10 --RF 1 --class lock --elem-bytes 4)
rune_plan_bad(hist_bad_N "--N must be a whole number" hist --device rtx2080ti --N lots --H 10 --RF 1 --class hdw --elem-bytes 4)
rune_plan_bad(hist_zero_H "--H must be a whole number" hist --device rtx2080ti --N 100 --H 0 --RF 1 --class hdw --elem-bytes 4)
rune_plan_bad(hist_bad_loads "--loads must be 1 or 0" hist --device rtx2080ti --N 100 --H 10 --RF 1 --class hdw --elem-bytes 4 --loads yes)
rune_plan_bad(hist_small_RF "--RF must be a number" hist --device rtx2080ti --N 100 --H 10 --RF 0.5 --class hdw --elem-bytes 4)
rune_plan_bad(hist_missing_elem_bytes "missing --elem-bytes" hist --device rtx2080ti --N 100 --H 10 --RF 1 --class hdw)
rune_plan_bad(hist_scan_device "unknown --device 'gtx780ti' for hist" hist --device gtx780ti --N 100 --H 10 --RF 1 --class hdw --elem-bytes 4)
rune_plan_bad(hist_unknown_option "unknown option --bins" hist --device rtx2080ti --bins 10)
