# The fuzz targets and what seeds each: shared by the libFuzzer build (tests/fuzz/CMakeLists.txt)
# and the replay ctests of the normal build (tests/CMakeLists.txt).
set(KGATE_FUZZ_TARGETS pipeline embedded_sources rule_loader suppressions)
# The Clang engine's target, where the optional Clang component is built (it links kgate_clang).
if(TARGET kgate_clang)
  list(APPEND KGATE_FUZZ_TARGETS clang_embedded)
  set(KGATE_FUZZ_LIBS_clang_embedded kgate_clang)
endif()
set(KGATE_FUZZ_SEEDS_pipeline "${CMAKE_SOURCE_DIR}/corpus" "${CMAKE_SOURCE_DIR}/rules")
set(KGATE_FUZZ_SEEDS_embedded_sources "${CMAKE_SOURCE_DIR}/corpus" "${CMAKE_SOURCE_DIR}/rules")
set(KGATE_FUZZ_SEEDS_rule_loader "${CMAKE_SOURCE_DIR}/rules")
set(KGATE_FUZZ_SEEDS_suppressions "${CMAKE_SOURCE_DIR}/corpus" "${CMAKE_SOURCE_DIR}/rules")
set(KGATE_FUZZ_SEEDS_clang_embedded "${CMAKE_SOURCE_DIR}/corpus")
# Which files of the seed folders a target starts from (the rest would only slow the first pass).
set(KGATE_FUZZ_SEED_GLOBS_pipeline *.py)
set(KGATE_FUZZ_SEED_GLOBS_embedded_sources *.py)
set(KGATE_FUZZ_SEED_GLOBS_rule_loader *.yaml)
set(KGATE_FUZZ_SEED_GLOBS_suppressions *.py *.cu)
set(KGATE_FUZZ_SEED_GLOBS_clang_embedded *.py)
