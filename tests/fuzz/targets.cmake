# The fuzz targets and what seeds each: shared by the libFuzzer build (tests/fuzz/CMakeLists.txt)
# and the replay ctests of the normal build (tests/CMakeLists.txt).
set(KGATE_FUZZ_TARGETS pipeline embedded_sources rule_loader suppressions)
set(KGATE_FUZZ_SEEDS_pipeline "${CMAKE_SOURCE_DIR}/corpus" "${CMAKE_SOURCE_DIR}/rules")
set(KGATE_FUZZ_SEEDS_embedded_sources "${CMAKE_SOURCE_DIR}/corpus" "${CMAKE_SOURCE_DIR}/rules")
set(KGATE_FUZZ_SEEDS_rule_loader "${CMAKE_SOURCE_DIR}/rules")
set(KGATE_FUZZ_SEEDS_suppressions "${CMAKE_SOURCE_DIR}/corpus" "${CMAKE_SOURCE_DIR}/rules")
# Which files of the seed folders a target starts from (the rest would only slow the first pass).
set(KGATE_FUZZ_SEED_GLOBS_pipeline *.py)
set(KGATE_FUZZ_SEED_GLOBS_embedded_sources *.py)
set(KGATE_FUZZ_SEED_GLOBS_rule_loader *.yaml)
set(KGATE_FUZZ_SEED_GLOBS_suppressions *.py *.cu)
